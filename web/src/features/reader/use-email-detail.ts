import { type InfiniteData, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Email, EmailListResponse } from "../../../../contract/mail.ts";
import { apiRequest } from "../../lib/api.ts";
import { emailKeys } from "../../lib/mail-queries.ts";

/** While the provider has not confirmed the last change (pending), the email is read again this often. */
export const PENDING_RECHECK_MS = 2_000;

/**
 * GET /api/emails/:id (with the bodies); the list's copy stands in while it loads. A pending email
 * is re-read until the server has settled it with the provider (decision 0019).
 */
export function useEmailDetail(emailId: string | null) {
  const queryClient = useQueryClient();
  return useQuery<Email>({
    queryKey: emailKeys.detail(emailId ?? ""),
    queryFn: ({ signal }) =>
      apiRequest<Email>("GET", `/api/emails/${encodeURIComponent(emailId ?? "")}`, undefined, { signal }),
    enabled: emailId !== null,
    refetchInterval: (query) => (query.state.data?.pending ? PENDING_RECHECK_MS : false),
    placeholderData: (): Email | undefined => {
      const lists = queryClient.getQueriesData<InfiniteData<EmailListResponse>>({
        queryKey: emailKeys.lists,
      });
      for (const [, data] of lists)
        for (const page of data?.pages ?? []) {
          const found = page.emails.find((e) => e.id === emailId);
          if (found) return found;
        }
      return undefined;
    },
  });
}
