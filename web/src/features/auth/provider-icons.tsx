import type { MailProvider } from "./providers.ts";

/** Simplified provider marks, decorative only (the button text names the provider). */
export function ProviderIcon({
  provider,
  className = "h-5 w-5",
}: {
  provider: MailProvider;
  className?: string;
}) {
  if (provider === "gmail") {
    return (
      <svg viewBox="0 0 24 24" className={className} aria-hidden="true" focusable="false">
        <path fill="#4285F4" d="M2 6.5V18a2 2 0 0 0 2 2h3V10.2L2 6.5Z" />
        <path fill="#34A853" d="M17 20h3a2 2 0 0 0 2-2V6.5l-5 3.7V20Z" />
        <path fill="#FBBC04" d="M17 4.6v5.6l5-3.7V5.4c0-1.6-1.9-2.6-3.2-1.6L17 4.6Z" />
        <path fill="#EA4335" d="M7 10.2V4.6l5 3.7 5-3.7v5.6l-5 3.7-5-3.7Z" />
        <path fill="#C5221F" d="M2 5.4v1.1l5 3.7V4.6L5.2 3.8C3.9 2.8 2 3.8 2 5.4Z" />
      </svg>
    );
  }
  return (
    <svg viewBox="0 0 24 24" className={className} aria-hidden="true" focusable="false">
      <rect x="9" y="4" width="13" height="16" rx="1.5" fill="#0A64AD" />
      <path fill="#fff" d="M11 8h9v1.2l-4.5 3-4.5-3V8Z" opacity=".9" />
      <rect x="2" y="6" width="11" height="12" rx="1.5" fill="#0F78D4" />
      <ellipse cx="7.5" cy="12" rx="2.6" ry="3.2" fill="none" stroke="#fff" strokeWidth="1.6" />
    </svg>
  );
}
