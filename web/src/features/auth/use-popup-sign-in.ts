import { useCallback, useEffect, useRef, useState } from "react";
import { fetchAuthUrl, LOGIN_MESSAGES, openAuthPopup, watchPopup } from "./oauth.ts";
import { connectFailedMessage, type MailProvider } from "./providers.ts";

export interface PopupSignIn {
  /** The provider being connected, or null when idle (spec section 4). */
  connecting: MailProvider | null;
  /** 'Pop-up blocked…' or 'Failed to get authentication URL', for an inline alert. */
  error: string | null;
  start: (provider: MailProvider) => Promise<void>;
}

/**
 * Spec section 7: fetch authUrl, open it in the popup, poll every second until it closes, then
 * call onClosed (the login page reloads; the dashboard re-reads its data).
 */
export function usePopupSignIn(onClosed: () => void, on401: "ignore" | "throw" = "ignore"): PopupSignIn {
  const [connecting, setConnecting] = useState<MailProvider | null>(null);
  const [error, setError] = useState<string | null>(null);
  const stopWatching = useRef<(() => void) | null>(null);
  const onClosedRef = useRef(onClosed);
  onClosedRef.current = onClosed;

  useEffect(() => () => stopWatching.current?.(), []);

  const start = useCallback(
    async (provider: MailProvider) => {
      setError(null);
      setConnecting(provider);
      try {
        const authUrl = await fetchAuthUrl(provider, on401);
        const popup = openAuthPopup(authUrl);
        if (!popup) {
          setError(LOGIN_MESSAGES.popupBlocked);
          setConnecting(null);
          return;
        }
        popup.focus();
        stopWatching.current?.();
        stopWatching.current = watchPopup(popup, () => {
          stopWatching.current = null;
          setConnecting(null);
          onClosedRef.current();
        });
      } catch (err) {
        console.error(err);
        setError(err instanceof Error && err.message === LOGIN_MESSAGES.noAuthUrl ? err.message : null);
        setConnecting(null);
        window.alert(connectFailedMessage(provider));
      }
    },
    [on401],
  );

  return { connecting, error, start };
}
