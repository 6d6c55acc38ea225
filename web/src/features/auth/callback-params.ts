import { type MailProvider, providerFromState } from "./providers.ts";

/** What /auth/callback should do with its query parameters (spec sections 2, 4 and 5). */
export type CallbackPlan =
  | { kind: "error"; message: string }
  /**
   * Server-redirect form: the server already exchanged the code. Its sessionToken parameter is a
   * single-use handoff that only this browser can trade for the session (decision 0017).
   */
  | { kind: "handoff"; handoff: string; provider: MailProvider }
  /** The page exchanges the code itself. */
  | { kind: "exchange"; provider: MailProvider; code: string; state: string };

export const CALLBACK_MESSAGES = {
  cancelled: "Authentication was cancelled or failed",
  noCode: "No authorization code received",
  exception: "Authentication failed. Please try again.",
  serverDefault: "Authentication failed",
} as const;

const CALLBACK_PARAMS = ["code", "error", "state", "provider", "success", "sessionToken"] as const;

/** Reads code, error, state, provider, success and sessionToken; the error parameter wins. */
export function planCallback(search: string): CallbackPlan {
  const params = new URLSearchParams(search);
  if (params.get("error") !== null) return { kind: "error", message: CALLBACK_MESSAGES.cancelled };
  const sessionToken = params.get("sessionToken");
  if (params.get("success") === "true" && sessionToken) {
    const provider = params.get("provider") === "outlook" ? "outlook" : "gmail";
    return { kind: "handoff", handoff: sessionToken, provider };
  }
  const code = params.get("code");
  if (!code) return { kind: "error", message: CALLBACK_MESSAGES.noCode };
  const state = params.get("state") ?? "";
  return { kind: "exchange", provider: providerFromState(state), code, state };
}

/** True when the address carries anything the callback reads, so it must be stripped. */
export function hasCallbackParams(search: string): boolean {
  const params = new URLSearchParams(search);
  return CALLBACK_PARAMS.some((k) => params.has(k));
}
