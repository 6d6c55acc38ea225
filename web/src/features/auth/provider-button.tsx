import type { ButtonHTMLAttributes } from "react";
import { ProviderIcon } from "./provider-icons.tsx";
import { type MailProvider, PROVIDER_NAMES } from "./providers.ts";

interface Props extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, "children" | "type"> {
  provider: MailProvider;
  busy: boolean;
}

/** "Continue with Gmail" / "Continue with Outlook"; keeps its name while busy. */
export function ProviderButton({ provider, busy, disabled, className = "", ...rest }: Props) {
  return (
    <button
      type="button"
      {...rest}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      className={`flex w-full items-center justify-center gap-3 rounded-lg border border-slate-300 bg-white px-4 py-3 font-medium text-slate-800 shadow-sm transition hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:opacity-60 ${className}`}
    >
      {busy ? (
        <span
          className="h-5 w-5 animate-spin rounded-full border-2 border-slate-200 border-t-brand-600"
          aria-hidden="true"
        />
      ) : (
        <ProviderIcon provider={provider} />
      )}
      <span>Continue with {PROVIDER_NAMES[provider]}</span>
    </button>
  );
}
