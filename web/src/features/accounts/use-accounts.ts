import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AccountsResponse, MailAccount } from "../../../../contract/auth.ts";
import { apiRequest } from "../../lib/api.ts";
import { refreshMail, SYNC_STATUS_KEY, watchSync } from "../../lib/mail-queries.ts";
import { SESSION_QUERY_KEY } from "../../lib/session.tsx";

export const ACCOUNTS_QUERY_KEY = ["/api/accounts"] as const;

/** GET /api/accounts through the default query function (a 401 yields null and signs out). */
export function useAccounts(): { accounts: MailAccount[]; isLoading: boolean; error: Error | null } {
  const query = useQuery<AccountsResponse | null>({ queryKey: ACCOUNTS_QUERY_KEY });
  return { accounts: query.data?.accounts ?? [], isLoading: query.isPending, error: query.error };
}

/**
 * Re-reads the accounts and the session user (which lists them too), and everything built on the
 * set of accounts: lists, stats, buckets and action items at once, then the new account's sync
 * progress every second while its first mail comes in (issue 19.1).
 */
export function useRefreshAccounts(): () => void {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: ACCOUNTS_QUERY_KEY });
    void queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY });
    watchSync();
    void queryClient.invalidateQueries({ queryKey: SYNC_STATUS_KEY });
    void refreshMail(queryClient);
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
