import { apiRequest } from "../../lib/api.ts";
import type { MailProvider } from "./providers.ts";

/** Spec section 9: the sign-in popup is 500x600 and is polled every second. */
export const POPUP_WIDTH = 500;
export const POPUP_HEIGHT = 600;
export const POPUP_POLL_MS = 1000;
const POPUP_NAME = "mailwise-oauth";

export const LOGIN_MESSAGES = {
  popupBlocked: "Pop-up blocked. Please allow pop-ups and try again.",
  noAuthUrl: "Failed to get authentication URL",
} as const;

/**
 * GET /api/auth/{provider} -> authUrl. With a stored session the request carries the Bearer
 * token, so the server links the new mailbox to the signed-in user instead of signing in.
 */
export async function fetchAuthUrl(
  provider: MailProvider,
  /** Signed-in pages let a 401 run the session handling; sign-in pages just fail. */
  on401: "ignore" | "throw" = "ignore",
): Promise<string> {
  let data: { authUrl?: unknown } | null;
  try {
    data = await apiRequest("GET", `/api/auth/${provider}`, undefined, { on401 });
  } catch (cause) {
    throw new Error(LOGIN_MESSAGES.noAuthUrl, { cause });
  }
  if (!data || typeof data.authUrl !== "string" || data.authUrl === "") {
    throw new Error(LOGIN_MESSAGES.noAuthUrl);
  }
  return data.authUrl;
}

/** Opens authUrl in a centred 500x600 popup; null when the browser blocked it. */
export function openAuthPopup(authUrl: string): Window | null {
  const left = Math.max(0, Math.round(window.screenX + (window.outerWidth - POPUP_WIDTH) / 2));
  const top = Math.max(0, Math.round(window.screenY + (window.outerHeight - POPUP_HEIGHT) / 2));
  // No noopener: the callback page inside the popup uses window.opener to know it should close.
  return window.open(
    authUrl,
    POPUP_NAME,
    `popup=yes,width=${POPUP_WIDTH},height=${POPUP_HEIGHT},left=${left},top=${top}`,
  );
}

/** Calls onClosed once the popup is gone; returns a function that stops watching. */
export function watchPopup(popup: Window, onClosed: () => void): () => void {
  const timer = window.setInterval(() => {
    if (popup.closed) {
      window.clearInterval(timer);
      onClosed();
    }
  }, POPUP_POLL_MS);
  return () => window.clearInterval(timer);
}

/** True inside the sign-in popup: our own page opened this window and can still see it. */
export function isInAuthPopup(): boolean {
  try {
    const opener = window.opener as Window | null;
    return opener !== null && opener !== window && opener.location.origin === window.location.origin;
  } catch {
    // A cross-origin opener throws on .location.origin: not ours.
    return false;
  }
}
