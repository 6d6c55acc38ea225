import { useState } from "react";
import { useUpdateOffer } from "./update-store.ts";

/**
 * "New version available" with Reload (issue 38): a new service worker waits instead of taking
 * over mid-work; Reload lets it take over and loads the new shell. Lives in the entry chunk (a few
 * hundred bytes), so the offer shows on every page.
 */
export function UpdatePrompt() {
  const activate = useUpdateOffer();
  const [reloading, setReloading] = useState(false);
  if (!activate) return null;
  return (
    <div
      role="status"
      aria-live="polite"
      className="fixed bottom-4 left-4 z-50 flex items-center gap-3 rounded-xl bg-slate-900 px-4 py-3 text-sm text-white shadow-lg"
    >
      <span>New version available</span>
      <button
        type="button"
        disabled={reloading}
        onClick={() => {
          setReloading(true);
          activate();
        }}
        className="rounded-lg bg-white px-3 py-1.5 font-medium text-slate-900 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white disabled:opacity-60"
      >
        Reload
      </button>
    </div>
  );
}
