import { useEffect } from "react";
import { navigate } from "wouter/use-browser-location";
import { PUSH_CLIENT_MESSAGE, pushPayloadSchema } from "../../../../contract/notifications.ts";

/**
 * With a tab open (issue 38, decision 0075): the service worker does not show a push itself when a
 * Mailwise tab is focused; it posts `{type: "mailwise:push", push}` to that tab, and the tab shows
 * it through the Notification API, so a mail is notified once, never by both. A click opens the
 * mail in the reader.
 */
export function usePushMessages(): void {
  useEffect(() => {
    if (!("serviceWorker" in navigator)) return;
    const onMessage = (event: MessageEvent<unknown>) => {
      const data = event.data as { type?: unknown; push?: unknown } | null;
      if (data?.type !== PUSH_CLIENT_MESSAGE) return;
      const parsed = pushPayloadSchema.safeParse(data.push);
      if (!parsed.success || typeof Notification === "undefined" || Notification.permission !== "granted")
        return;
      const { emailId, from, subject } = parsed.data;
      const notification = new Notification(from, { body: subject, tag: emailId });
      notification.onclick = () => {
        window.focus();
        navigate(`/dashboard?email=${encodeURIComponent(emailId)}`);
        notification.close();
      };
    };
    navigator.serviceWorker.addEventListener("message", onMessage);
    return () => navigator.serviceWorker.removeEventListener("message", onMessage);
  }, []);
}
