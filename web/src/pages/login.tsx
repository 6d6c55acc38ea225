import { Link } from "wouter";
import { AuthShell } from "../features/auth/auth-shell.tsx";
import { ProviderButton } from "../features/auth/provider-button.tsx";
import type { MailProvider } from "../features/auth/providers.ts";
import { usePopupSignIn } from "../features/auth/use-popup-sign-in.ts";
import { useArrivalReason } from "../features/auth/use-session-toast.ts";

const ORDER: readonly MailProvider[] = ["outlook", "gmail"];

export default function LoginPage() {
  useArrivalReason();
  // Spec section 7: when the popup closes the page reloads; a stored token then leads to /dashboard.
  const signIn = usePopupSignIn(() => window.location.reload());

  return (
    <AuthShell>
      <h1 className="text-center text-2xl font-bold text-slate-900">Welcome back</h1>
      <p className="mt-2 text-center text-slate-600">Sign in with the email account you use with Mailwise.</p>

      <div className="mt-8 flex flex-col gap-3">
        {ORDER.map((provider) => (
          <ProviderButton
            key={provider}
            provider={provider}
            busy={signIn.connecting === provider}
            disabled={signIn.connecting !== null && signIn.connecting !== provider}
            onClick={() => void signIn.start(provider)}
          />
        ))}
      </div>

      {signIn.error ? (
        <p
          role="alert"
          className="mt-4 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700"
        >
          {signIn.error}
        </p>
      ) : null}

      <p className="mt-8 text-center text-sm text-slate-600">
        Don't have an account?{" "}
        <Link href="/signup" className="font-medium text-brand-700 underline-offset-2 hover:underline">
          Sign up
        </Link>
      </p>
      <p className="mt-4 text-center text-xs text-slate-500">
        By continuing you agree to our{" "}
        <Link href="/terms-of-service" className="underline hover:text-slate-700">
          Terms of Service
        </Link>{" "}
        and{" "}
        <Link href="/privacy-policy" className="underline hover:text-slate-700">
          Privacy Policy
        </Link>
        .
      </p>
    </AuthShell>
  );
}
