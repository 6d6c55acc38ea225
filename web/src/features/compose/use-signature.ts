import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AccountSignature } from "../../../../contract/signatures.ts";
import { apiRequest } from "../../lib/api.ts";

export const signatureKey = (accountId: string) => ["/api/accounts", accountId, "signature"] as const;

/** GET /api/accounts/:id/signature; undefined while loading or without an account. */
export function useSignature(accountId: string | null): AccountSignature | undefined {
  const query = useQuery({
    queryKey: signatureKey(accountId ?? ""),
    queryFn: () =>
      apiRequest<AccountSignature>("GET", `/api/accounts/${encodeURIComponent(accountId ?? "")}/signature`),
    enabled: accountId !== null,
    staleTime: 60_000,
  });
  return accountId === null ? undefined : query.data;
}

/** PUT /api/accounts/:id/signature: the server answers the sanitized HTML and its text. */
export function useSaveSignature(accountId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (html: string) =>
      apiRequest<AccountSignature>("PUT", `/api/accounts/${encodeURIComponent(accountId)}/signature`, {
        html,
      }),
    onSuccess: (saved) => queryClient.setQueryData(signatureKey(accountId), saved),
  });
}
