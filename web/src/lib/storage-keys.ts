/** Browser storage keys named by the spec (section 3). */
export const SESSION_TOKEN_KEY = "sessionToken";
/** Calendar calls of the original client also read this key. */
export const LEGACY_SESSION_TOKEN_KEY = "session_token";
export const AUTH_FAILURE_REASON_KEY = "authFailureReason";
export const COOKIE_CONSENT_KEY = "cookieConsent";

export type AuthFailureReason = "manual" | "session_expired" | "token_invalid" | "auth_required";

export function readSessionToken(): string | null {
  try {
    return localStorage.getItem(SESSION_TOKEN_KEY);
  } catch {
    return null;
  }
}

/**
 * Spec section 3: calendar calls also read `session_token`, where an older client kept the token.
 * `sessionToken` wins when both are there.
 */
export function readCalendarSessionToken(): string | null {
  try {
    return localStorage.getItem(SESSION_TOKEN_KEY) ?? localStorage.getItem(LEGACY_SESSION_TOKEN_KEY);
  } catch {
    return null;
  }
}

/** The last loaded inbox and who it belongs to, for opening offline (issue 38, persisted-queries.ts). */
export const OFFLINE_INBOX_KEY = "mailwise:offline-inbox";
