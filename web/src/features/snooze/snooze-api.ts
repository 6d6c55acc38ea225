import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import type { SnoozeAnswer, SnoozedList } from "../../../../contract/snooze.ts";
import { apiRequest } from "../../lib/api.ts";
import { ACTION_ITEMS_KEY, emailKeys, REFRESH_EMAILS_EVENT, STATS_KEY } from "../../lib/mail-queries.ts";

/** Snooze (issue 37): the Snoozed view's list and the snooze, change-time and unsnooze calls. */
export const SNOOZED_KEY = ["/api/snoozed"] as const;

const snoozePath = (conversationId: string) =>
  `/api/conversations/${encodeURIComponent(conversationId)}/snooze`;

export function useSnoozed() {
  const query = useQuery({
    queryKey: SNOOZED_KEY,
    queryFn: () => apiRequest<SnoozedList>("GET", "/api/snoozed"),
    // A wake happens on the server at its time: look again each minute.
    refetchInterval: 60_000,
  });
  const { refetch } = query;
  // Whatever refreshes the mail views (sync done, a manual refresh) refreshes this one too.
  useEffect(() => {
    const onRefresh = () => void refetch();
    window.addEventListener(REFRESH_EMAILS_EVENT, onRefresh);
    return () => window.removeEventListener(REFRESH_EMAILS_EVENT, onRefresh);
  }, [refetch]);
  return query;
}

type SnoozeCall =
  | { kind: "snooze"; conversationId: string; until: Date }
  | { kind: "change"; conversationId: string; until: Date }
  | { kind: "unsnooze"; conversationId: string };

/** One mutation for the three calls; lists, stats and the Snoozed view refresh after each. */
export function useSnoozeActions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (call: SnoozeCall) =>
      call.kind === "unsnooze"
        ? apiRequest<SnoozeAnswer>("DELETE", snoozePath(call.conversationId))
        : apiRequest<SnoozeAnswer>(
            call.kind === "snooze" ? "POST" : "PATCH",
            snoozePath(call.conversationId),
            {
              until: call.until.toISOString(),
            },
          ),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: emailKeys.lists });
      void queryClient.invalidateQueries({ queryKey: SNOOZED_KEY });
      void queryClient.invalidateQueries({ queryKey: STATS_KEY });
      void queryClient.invalidateQueries({ queryKey: ACTION_ITEMS_KEY });
    },
  });
}

/** The browser's IANA zone: the person's zone unless they say otherwise. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/** Tells the server the person's zone (once per page load; presets are computed in it). */
export function sendTimeZone(): Promise<unknown> {
  return apiRequest("PUT", "/api/settings/time-zone", { timeZone: browserTimeZone() });
}
