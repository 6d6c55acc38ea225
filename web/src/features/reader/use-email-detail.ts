import { type InfiniteData, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Email, EmailListResponse } from "../../../../contract/mail.ts";
import { apiRequest } from "../../lib/api.ts";
import { emailKeys } from "../../lib/mail-queries.ts";

/** GET /api/emails/:id (with the bodies); the list's copy stands in while it loads. */
export function useEmailDetail(emailId: string | null) {
  const queryClient = useQueryClient();
  return useQuery<Email>({
    queryKey: emailKeys.detail(emailId ?? ""),
    queryFn: ({ signal }) =>
      apiRequest<Email>("GET", `/api/emails/${encodeURIComponent(emailId ?? "")}`, undefined, { signal }),
    enabled: emailId !== null,
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
