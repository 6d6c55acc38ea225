import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AccountsResponse, MailAccount } from "../../../../contract/auth.ts";
import { apiRequest } from "../../lib/api.ts";
import { SESSION_QUERY_KEY } from "../../lib/session.tsx";

export const ACCOUNTS_QUERY_KEY = ["/api/accounts"] as const;

/** GET /api/accounts through the default query function (a 401 yields null and signs out). */
export function useAccounts(): { accounts: MailAccount[]; isLoading: boolean; error: Error | null } {
  const query = useQuery<AccountsResponse | null>({ queryKey: ACCOUNTS_QUERY_KEY });
  return { accounts: query.data?.accounts ?? [], isLoading: query.isPending, error: query.error };
}

/** Re-reads the accounts and the session user (which lists them too). */
export function useRefreshAccounts(): () => void {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: ACCOUNTS_QUERY_KEY });
    void queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY });
  };
}

/** DELETE /api/accounts/:id; the server refuses the last account with a 409 and a message. */
export function useDisconnectAccount() {
  const refresh = useRefreshAccounts();
  return useMutation({
    mutationFn: (id: string) => apiRequest<void>("DELETE", `/api/accounts/${encodeURIComponent(id)}`),
    onSuccess: refresh,
  });
}
