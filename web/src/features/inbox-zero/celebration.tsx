import { useEffect, useState } from "react";

/** Spec section 9: the celebration stays 4 s, then fades out over 0.5 s. */
export const CELEBRATION_MS = 4000;
export const CELEBRATION_FADE_MS = 500;

/**
 * The full-screen 'Inbox Zero!' celebration with the 'Inbox Zero Master' achievement text. It
 * takes no input (the dashboard stays usable under it) and calls `onDone` when it has faded.
 * Under reduced motion nothing moves: it shows, then goes after the same time.
 */
export function Celebration({ onDone }: { onDone: () => void }) {
  const [fading, setFading] = useState(false);
  useEffect(() => {
    const fade = setTimeout(() => setFading(true), CELEBRATION_MS);
    const done = setTimeout(onDone, CELEBRATION_MS + CELEBRATION_FADE_MS);
    return () => {
      clearTimeout(fade);
      clearTimeout(done);
    };
  }, [onDone]);
  return (
    <div
      className={`pointer-events-none fixed inset-0 z-[70] flex items-center justify-center bg-gradient-to-br from-brand-600/95 to-emerald-500/95 p-6 text-center text-white motion-safe:transition-opacity ${fading ? "opacity-0" : "opacity-100"}`}
      style={{ transitionDuration: `${CELEBRATION_FADE_MS}ms` }}
      role="status"
      aria-live="assertive"
      data-testid="inbox-zero-celebration"
      data-fading={fading ? "true" : "false"}
    >
      <div className="motion-safe:animate-celebrate">
        <p aria-hidden="true" className="text-6xl sm:text-7xl">
          🎉
        </p>
        <h2 className="mt-4 text-4xl font-extrabold tracking-tight sm:text-6xl">Inbox Zero!</h2>
        <p className="mt-3 text-lg text-white/90">Every unread email is taken care of.</p>
        <div className="mx-auto mt-6 inline-flex items-center gap-3 rounded-2xl bg-white/15 px-5 py-3">
          <span aria-hidden="true" className="text-3xl">
            🏆
          </span>
          <span className="text-left">
            <span className="block text-xs font-semibold tracking-wide uppercase text-white/80">
              Achievement unlocked
            </span>
            <span className="block text-lg font-bold">Inbox Zero Master</span>
          </span>
        </div>
      </div>
    </div>
  );
}
