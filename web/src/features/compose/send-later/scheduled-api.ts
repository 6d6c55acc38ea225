import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { HeldMail, OutboxList, SendNowAnswer } from "../../../../../contract/outbox.ts";
import { apiRequest } from "../../../lib/api.ts";

/** The Scheduled list (issue 37) over GET /api/outbox: the held mail the person scheduled or that failed. */
export const outboxKeys = { list: ["outbox", "list"] as const };

/** Scheduled mail and mail that could not be sent; an Undo-send hold of seconds is not listed. */
export function useScheduled() {
  return useQuery({
    queryKey: outboxKeys.list,
    queryFn: () => apiRequest<OutboxList>("GET", "/api/outbox"),
    select: (list) => list.items.filter((item) => item.scheduled || item.status === "failed"),
    refetchInterval: 30_000,
  });
}

export function useScheduledActions() {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: outboxKeys.list });
  const reschedule = useMutation({
    mutationFn: ({ id, sendAt }: { id: string; sendAt: string }) =>
      apiRequest<HeldMail>("PATCH", `/api/outbox/${id}`, { sendAt }),
    onSettled: refresh,
  });
  const sendNow = useMutation({
    mutationFn: (id: string) => apiRequest<SendNowAnswer>("POST", `/api/outbox/${id}/send`),
    onSettled: refresh,
  });
  const cancel = useMutation({
    mutationFn: (id: string) => apiRequest<void>("POST", `/api/outbox/${id}/cancel`),
    onSettled: refresh,
  });
  return { reschedule, sendNow, cancel, refresh };
}
