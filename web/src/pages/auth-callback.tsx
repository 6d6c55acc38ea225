import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { useLocation } from "wouter";
import { AuthShell } from "../features/auth/auth-shell.tsx";
import { hasCallbackParams, planCallback } from "../features/auth/callback-params.ts";
import { claimHandoff, exchangeCode } from "../features/auth/exchange.ts";
import { isInAuthPopup } from "../features/auth/oauth.ts";
import { refreshSession, storeSessionToken } from "../lib/session.tsx";

/** Spec section 9: redirect delays. */
const ERROR_REDIRECT_MS = 3000;
const SUCCESS_REDIRECT_MS = 2000;

type Status = { kind: "loading" } | { kind: "success" } | { kind: "error"; message: string };

export default function AuthCallbackPage() {
  // Read once, before the address is cleaned (StrictMode's second initializer call still sees it).
  const [plan] = useState(() => planCallback(window.location.search));
  const [status, setStatus] = useState<Status>(() =>
    plan.kind === "error" ? { kind: "error", message: plan.message } : { kind: "loading" },
  );
  const started = useRef(false);
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();

  // The code and, in the redirect form, the handoff must not stay in the address bar or history.
  useLayoutEffect(() => {
    if (hasCallbackParams(window.location.search)) {
      window.history.replaceState(window.history.state, "", window.location.pathname);
    }
  }, []);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    if (plan.kind === "error") return;
    if (plan.kind === "handoff") {
      // The server already exchanged the code; its handoff becomes a session only if this
      // browser's sign-in produced it. Then straight on to the dashboard.
      void claimHandoff(plan.handoff).then((result) => {
        if (!result.ok) {
          setStatus({ kind: "error", message: result.message });
          return;
        }
        storeSessionToken(result.sessionToken);
        if (isInAuthPopup()) {
          window.close();
          return;
        }
        void refreshSession(queryClient);
        navigate("/dashboard", { replace: true });
      });
      return;
    }
    void exchangeCode(plan.provider, plan.code, plan.state).then((result) => {
      if (!result.ok) {
        setStatus({ kind: "error", message: result.message });
        return;
      }
      storeSessionToken(result.sessionToken);
      // Inside the login popup: closing it lets the opener's poll reload into the dashboard.
      if (isInAuthPopup()) window.close();
      setStatus({ kind: "success" });
    });
  }, [plan, queryClient, navigate]);

  useEffect(() => {
    if (status.kind === "loading") return;
    const timer = window.setTimeout(
      () => {
        if (status.kind === "error" && isInAuthPopup()) {
          window.close();
          return;
        }
        if (status.kind === "success") void refreshSession(queryClient);
        navigate(status.kind === "success" ? "/dashboard" : "/login", { replace: true });
      },
      status.kind === "success" ? SUCCESS_REDIRECT_MS : ERROR_REDIRECT_MS,
    );
    return () => window.clearTimeout(timer);
  }, [status, queryClient, navigate]);

  return (
    <AuthShell>
      <div className="flex flex-col items-center text-center" aria-live="polite">
        {status.kind === "loading" ? (
          <>
            <div
              className="h-10 w-10 animate-spin rounded-full border-4 border-brand-100 border-t-brand-600"
              aria-hidden="true"
            />
            <h1 className="mt-5 text-xl font-semibold text-slate-900">Completing sign-in…</h1>
            <p className="mt-2 text-slate-600">Please wait while we connect your account.</p>
          </>
        ) : status.kind === "success" ? (
          <>
            <div
              className="grid h-12 w-12 place-items-center rounded-full bg-green-100 text-2xl text-green-700"
              aria-hidden="true"
            >
              ✓
            </div>
            <h1 className="mt-5 text-xl font-semibold text-slate-900">Signed in successfully</h1>
            <p className="mt-2 text-slate-600">Taking you to your dashboard…</p>
          </>
        ) : (
          <>
            <div
              className="grid h-12 w-12 place-items-center rounded-full bg-red-100 text-2xl text-red-700"
              aria-hidden="true"
            >
              !
            </div>
            <h1 className="mt-5 text-xl font-semibold text-slate-900">Sign-in failed</h1>
            <p role="alert" className="mt-2 text-red-700">
              {status.message}
            </p>
            <p className="mt-2 text-sm text-slate-500">Returning to the login page…</p>
          </>
        )}
      </div>
    </AuthShell>
  );
}
