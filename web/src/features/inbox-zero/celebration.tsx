import { useEffect, useState } from "react";
import { Pictogram } from "../../components/ui/pictogram.tsx";
import { formatCount } from "../inbox/format.ts";
import type { InboxZeroEnding } from "./ending.ts";

/** Spec section 9: the celebration stays 4 s, then fades out over 0.5 s. */
export const CELEBRATION_MS = 4000;
export const CELEBRATION_FADE_MS = 500;

const BADGE_LABEL = { unlocked: "Achievement unlocked", held: "Achievement earned" } as const;

/**
 * The end of Inbox Zero mode, full screen for 4 s. At a real inbox zero (the server counts no
 * unread mail) the 'Inbox Zero!' celebration, with the 'Inbox Zero Master' achievement text only
 * when the server counts the badge as earned. Otherwise 'All cards handled', saying how much is
 * still unread. It takes no input (the dashboard stays usable under it) and calls `onDone` when it
 * has faded. Under reduced motion nothing moves: it shows, then goes after the same time.
 */
export function Celebration({ ending, onDone }: { ending: InboxZeroEnding; onDone: () => void }) {
  const [fading, setFading] = useState(false);
  useEffect(() => {
    const fade = setTimeout(() => setFading(true), CELEBRATION_MS);
    const done = setTimeout(onDone, CELEBRATION_MS + CELEBRATION_FADE_MS);
    return () => {
      clearTimeout(fade);
      clearTimeout(done);
    };
  }, [onDone]);
  const zero = ending.kind === "inbox-zero";
  return (
    <div
      className={`pointer-events-none fixed inset-0 z-[70] flex items-center justify-center bg-gradient-to-br p-6 text-center text-white motion-safe:transition-opacity ${zero ? "from-brand-600/95 to-emerald-500/95" : "from-slate-800/95 to-brand-700/95"} ${fading ? "opacity-0" : "opacity-100"}`}
      style={{ transitionDuration: `${CELEBRATION_FADE_MS}ms` }}
      role="status"
      aria-live="assertive"
      data-testid="inbox-zero-celebration"
      data-ending={ending.kind}
      data-fading={fading ? "true" : "false"}
    >
      <div className="motion-safe:animate-celebrate">
        {ending.kind === "inbox-zero" ? (
          <>
            <Pictogram name="party" className="mx-auto h-16 w-16 sm:h-20 sm:w-20" />
            <h2 className="mt-4 text-4xl font-extrabold tracking-tight sm:text-6xl">Inbox Zero!</h2>
            <p className="mt-3 text-lg text-white/90">Every unread email is taken care of.</p>
            {ending.badge ? (
              <div className="mx-auto mt-6 inline-flex items-center gap-3 rounded-2xl bg-white/15 px-5 py-3">
                <Pictogram name="trophy" className="h-9 w-9 text-yellow-200" />
                <span className="text-left">
                  <span className="block text-xs font-semibold tracking-wide uppercase text-white/80">
                    {BADGE_LABEL[ending.badge]}
                  </span>
                  <span className="block text-lg font-bold">Inbox Zero Master</span>
                </span>
              </div>
            ) : null}
          </>
        ) : (
          <>
            <Pictogram name="check-circle" className="mx-auto h-16 w-16 sm:h-20 sm:w-20" />
            <h2 className="mt-4 text-3xl font-extrabold tracking-tight sm:text-5xl">All cards handled</h2>
            <p className="mt-3 text-lg text-white/90">{stillUnread(ending.unread)}</p>
          </>
        )}
      </div>
    </div>
  );
}

function stillUnread(unread: number | null): string {
  if (unread === null) return "Every card in the queue is done.";
  const emails = unread === 1 ? "unread email is" : "unread emails are";
  return `${formatCount(unread)} ${emails} still in your inbox: starred and flagged emails stay unread.`;
}
