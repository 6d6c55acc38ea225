import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useOffline } from "../../lib/connectivity.ts";
import { refreshMail } from "../../lib/mail-queries.ts";

/**
 * "Offline" over the dashboard while the browser has no network or Mailwise does not answer
 * (issue 38). The inbox below is the last one loaded; actions are refused, never queued. Back
 * online, the mail is read again at once.
 */
export function OfflineBanner() {
  const offline = useOffline();
  const queryClient = useQueryClient();
  const wasOffline = useRef(offline);
  useEffect(() => {
    if (wasOffline.current && !offline) void refreshMail(queryClient);
    wasOffline.current = offline;
  }, [offline, queryClient]);
  if (!offline) return null;
  return (
    <div
      role="status"
      aria-live="polite"
      data-testid="offline-banner"
      className="flex flex-wrap items-center gap-2 rounded-xl border border-slate-300 bg-slate-100 px-4 py-2 text-sm text-slate-800"
    >
      <span className="font-semibold">Offline</span>
      <span>Showing the last loaded inbox. Actions are unavailable until you're back online.</span>
    </div>
  );
}
