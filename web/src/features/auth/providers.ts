import type { MailProvider } from "../../../../contract/auth.ts";

export type { MailProvider };

export const PROVIDER_NAMES: Record<MailProvider, string> = { gmail: "Gmail", outlook: "Outlook" };

/** Spec section 4: the provider is outlook if the state contains 'outlook', otherwise gmail. */
export function providerFromState(state: string | null | undefined): MailProvider {
  return state?.includes("outlook") ? "outlook" : "gmail";
}

/** Spec section 8: the alert after a failed login attempt. */
export function connectFailedMessage(provider: MailProvider): string {
  return `Failed to connect to ${PROVIDER_NAMES[provider]}. Please try again.`;
}
