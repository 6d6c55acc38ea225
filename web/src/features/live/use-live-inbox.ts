import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useSyncExternalStore } from "react";
import { type LiveState, liveState, startLiveEvents, subscribeLiveState } from "../../lib/live-events.ts";
import { applyLiveEvent } from "../../lib/live-merge.ts";
import { refreshMail } from "../../lib/mail-queries.ts";

/**
 * Opens this tab's live stream while the dashboard is mounted and merges its events into the
 * query cache; returns the stream's state for the banner.
 */
export function useLiveInbox(): LiveState {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      startLiveEvents(
        (name, data) => applyLiveEvent(queryClient, name, data),
        () => void refreshMail(queryClient),
      ),
    [queryClient],
  );
  return useSyncExternalStore(subscribeLiveState, liveState, () => "off");
}
