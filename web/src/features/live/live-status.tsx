import { useEffect, useState } from "react";
import type { LiveState } from "../../lib/live-events.ts";

/** A drop shorter than this (a reconnect after a deploy, a proxy's idle cut) shows nothing. */
const QUIET_MS = 2_500;

/**
 * The stream's state when it matters: "Reconnecting…" while the tab has no live stream (mail
 * still arrives by the slower poll meanwhile), gone again once it is back.
 */
export function LiveStatus({ state, className = "" }: { state: LiveState; className?: string }) {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (state !== "reconnecting") {
      setShown(false);
      return;
    }
    const timer = setTimeout(() => setShown(true), QUIET_MS);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <div role="status" aria-live="polite" className={`empty:hidden ${className}`}>
      {shown ? (
        <p
          data-testid="live-status"
          className="flex items-center gap-2 rounded-xl border border-slate-200 bg-slate-50 px-4 py-2 text-sm text-slate-700"
        >
          <span className="h-2 w-2 rounded-full bg-amber-500" aria-hidden="true" />
          <span className="font-medium">Reconnecting…</span>
          <span>New mail may take a little longer to appear.</span>
        </p>
      ) : null}
    </div>
  );
}
