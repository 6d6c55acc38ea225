import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useSyncExternalStore } from "react";
import { type LiveState, liveState, startLiveEvents, subscribeLiveState } from "../../lib/live-events.ts";
import { applyLiveEvent } from "../../lib/live-merge.ts";
import { refreshMail } from "../../lib/mail-queries.ts";
import { SNOOZED_KEY } from "../snooze/snooze-api.ts";

/**
 * Opens this tab's live stream while the dashboard is mounted and merges its events into the
 * query cache; returns the stream's state for the banner. A refetch (missed events, or a change
 * the server made on its own, such as a snoozed conversation waking) also re-reads the Snoozed
 * view, which the mail events do not carry.
 */
export function useLiveInbox(): LiveState {
  const queryClient = useQueryClient();
  useEffect(() => {
    const everything = () => {
      void refreshMail(queryClient);
      void queryClient.invalidateQueries({ queryKey: SNOOZED_KEY });
    };
    return startLiveEvents((name, data) => {
      if (name === "refetch") everything();
      else applyLiveEvent(queryClient, name, data);
    }, everything);
  }, [queryClient]);
  return useSyncExternalStore(subscribeLiveState, liveState, () => "off");
}
