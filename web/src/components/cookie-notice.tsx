import { useState } from "react";
import { Link } from "wouter";
import { COOKIE_CONSENT_KEY } from "../lib/storage-keys.ts";

type Consent = "accepted" | "declined";

function readConsent(): Consent | null {
  try {
    const v = localStorage.getItem(COOKIE_CONSENT_KEY);
    return v === "accepted" || v === "declined" ? v : null;
  } catch {
    return null;
  }
}

/** Shown until answered; the answer is stored as cookieConsent = accepted | declined. */
export function CookieNotice() {
  const [answered, setAnswered] = useState(() => readConsent() !== null);
  if (answered) return null;
  const answer = (value: Consent) => {
    try {
      localStorage.setItem(COOKIE_CONSENT_KEY, value);
    } catch {
      // storage unavailable: hide for this visit anyway
    }
    setAnswered(true);
  };
  return (
    <section
      aria-label="Cookie notice"
      className="fixed inset-x-0 bottom-0 z-50 border-t border-slate-200 bg-white/95 p-4 shadow-lg backdrop-blur"
    >
      <div className="mx-auto flex max-w-5xl flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-slate-700">
          We use essential cookies and browser storage to keep you signed in and remember your choices;
          Mailwise sets no analytics or advertising cookies. Read our{" "}
          <Link href="/privacy-policy" className="font-medium text-brand-700 underline">
            Privacy Policy
          </Link>
          .
        </p>
        <div className="flex shrink-0 gap-2">
          <button
            type="button"
            onClick={() => answer("declined")}
            className="rounded-lg border border-slate-300 px-4 py-2 text-sm font-medium text-slate-800 hover:bg-slate-100"
          >
            Decline
          </button>
          <button
            type="button"
            onClick={() => answer("accepted")}
            className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700"
          >
            Accept
          </button>
        </div>
      </div>
    </section>
  );
}
