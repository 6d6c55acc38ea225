import { useEffect, useRef, useState } from "react";
import { Link } from "wouter";
import { AuthShell } from "../features/auth/auth-shell.tsx";
import { fetchAuthUrl, openAuthPopup, watchPopup } from "../features/auth/oauth.ts";
import { ProviderButton } from "../features/auth/provider-button.tsx";
import { type MailProvider, PROVIDER_NAMES } from "../features/auth/providers.ts";

const BENEFITS = [
  "14-day free trial, no credit card required",
  "Connect several Gmail and Outlook accounts into one inbox",
  "AI summaries, urgency and sentiment for every email",
  "Suggested reply drafts in your own tone",
  "Inbox Zero mode, achievements and a calendar in one place",
] as const;

export default function SignupPage() {
  const [busy, setBusy] = useState<MailProvider | null>(null);
  const stopWatching = useRef<(() => void) | null>(null);
  useEffect(() => () => stopWatching.current?.(), []);

  const start = async (provider: MailProvider) => {
    setBusy(provider);
    let authUrl: string;
    try {
      authUrl = await fetchAuthUrl(provider);
    } catch (err) {
      // Spec section 8: only logged, and the busy state resets.
      console.error(`${PROVIDER_NAMES[provider]} authentication not available`, err);
      setBusy(null);
      return;
    }
    if (provider === "gmail") {
      // Spec section 7: Gmail signup navigates the whole page.
      window.location.assign(authUrl);
      return;
    }
    const popup = openAuthPopup(authUrl);
    if (!popup) {
      // Blocked: fall back to a full-page navigation.
      window.location.assign(authUrl);
      return;
    }
    popup.focus();
    stopWatching.current?.();
    stopWatching.current = watchPopup(popup, () => window.location.reload());
  };

  return (
    <AuthShell wide>
      <div className="grid gap-8 md:grid-cols-2">
        <section>
          <h1 className="text-2xl font-bold text-slate-900">Create your Mailwise account</h1>
          <p className="mt-2 text-slate-600">
            One AI-assisted inbox for all your Gmail and Outlook accounts.
          </p>
          <h2 className="mt-6 text-sm font-semibold tracking-wide text-slate-500 uppercase">What you get</h2>
          <ul className="mt-3 space-y-2">
            {BENEFITS.map((b) => (
              <li key={b} className="flex gap-2 text-slate-700">
                <span aria-hidden="true" className="mt-0.5 text-brand-600">
                  ✓
                </span>
                {b}
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="choose-provider">
          <h2 id="choose-provider" className="text-xl font-semibold text-slate-900">
            Choose Your Email Provider
          </h2>
          <div className="mt-5 flex flex-col gap-3">
            {(["gmail", "outlook"] as const).map((provider) => (
              <ProviderButton
                key={provider}
                provider={provider}
                busy={busy === provider}
                disabled={busy !== null && busy !== provider}
                onClick={() => void start(provider)}
              />
            ))}
          </div>
          <div className="mt-5 rounded-lg border border-brand-100 bg-brand-50 p-3 text-sm text-slate-700">
            <p className="font-medium text-slate-900">Secure sign-in with OAuth 2.0</p>
            <p className="mt-1">
              You sign in on Google's or Microsoft's own page. Mailwise never sees or stores your password,
              and you can revoke access at any time.
            </p>
          </div>
          <p className="mt-5 text-xs text-slate-500">
            By signing up you agree to our{" "}
            <Link href="/tos" className="underline hover:text-slate-700">
              Terms of Service
            </Link>{" "}
            and{" "}
            <Link href="/privacy" className="underline hover:text-slate-700">
              Privacy Policy
            </Link>
            .
          </p>
          <p className="mt-4 text-sm text-slate-600">
            Already have an account?{" "}
            <Link href="/login" className="font-medium text-brand-700 underline-offset-2 hover:underline">
              Sign in
            </Link>
          </p>
        </section>
      </div>
    </AuthShell>
  );
}
