import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useLocation } from "wouter";
import { AuthShell } from "../features/auth/auth-shell.tsx";
import { logoutScreenFor } from "../features/auth/session-texts.ts";
import { useArrivalReason } from "../features/auth/use-session-toast.ts";
import { forgetThisBrowser } from "../features/notifications/notifications-api.ts";
import { apiRequest } from "../lib/api.ts";
import { clearSessionToken } from "../lib/session.tsx";

const buttonBase =
  "inline-flex items-center justify-center rounded-lg px-5 py-2.5 font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:opacity-60";
const primary = `${buttonBase} bg-brand-600 text-white hover:bg-brand-700`;
const secondary = `${buttonBase} border border-slate-300 bg-white text-slate-800 hover:bg-slate-100`;

export default function LogoutPage() {
  const reason = useArrivalReason();
  const screen = logoutScreenFor(reason);
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [busy, setBusy] = useState(false);

  /** Spec section 4: whether the call succeeds or fails, drop the token and cache, go to /login. */
  const logOut = async () => {
    setBusy(true);
    // While the session still works: this browser stops getting the person's notifications.
    await forgetThisBrowser();
    try {
      await apiRequest("POST", "/api/auth/logout", undefined, { on401: "ignore" });
    } catch (err) {
      console.error(err);
    }
    clearSessionToken();
    queryClient.clear();
    navigate("/login", { replace: true });
  };

  return (
    <AuthShell>
      <div className="text-center">
        <h1 className="text-2xl font-bold text-slate-900">{screen.title}</h1>
        <p className="mt-3 text-slate-700">{screen.text}</p>
        <p className="mt-4 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
          Note: you may need to re-authenticate your Gmail/Outlook accounts after logging in again.
        </p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          {screen.confirm ? (
            <>
              <button type="button" className={primary} disabled={busy} onClick={() => void logOut()}>
                Confirm Logout
              </button>
              <button type="button" className={secondary} onClick={() => navigate("/dashboard")}>
                Cancel
              </button>
            </>
          ) : (
            <>
              <button type="button" className={primary} disabled={busy} onClick={() => void logOut()}>
                Log In Again
              </button>
              {screen.goHome ? (
                <button type="button" className={secondary} onClick={() => navigate("/")}>
                  Go to Home
                </button>
              ) : null}
            </>
          )}
        </div>
      </div>
    </AuthShell>
  );
}
