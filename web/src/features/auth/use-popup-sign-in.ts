import { useCallback, useEffect, useRef, useState } from "react";
import { SESSION_TOKEN_KEY } from "../../lib/storage-keys.ts";
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
 * call onClosed (the login page reloads; the dashboard re-reads its data). A sign-in that succeeds
 * ends the wait at once: the popup's callback page stores the new session token, which this window
 * hears as a storage event. The popup may stay open after that (a tab on a phone, a browser that
 * refuses window.close), and "Finish signing in" must not outlive the sign-in.
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
        const finish = () => {
          stop();
          stopWatching.current = null;
          setConnecting(null);
          onClosedRef.current();
        };
        const onStorage = (event: StorageEvent) => {
          if (event.key === SESSION_TOKEN_KEY && event.newValue) finish();
        };
        const stopPolling = watchPopup(popup, finish);
        window.addEventListener("storage", onStorage);
        const stop = () => {
          stopPolling();
          window.removeEventListener("storage", onStorage);
        };
        stopWatching.current = stop;
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
