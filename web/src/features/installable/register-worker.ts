/**
 * Registers the service worker (web/src/sw/sw.ts) through workbox-window, offers a waiting new
 * version as "New version available, Reload", and follows the worker's messages: a notification
 * click opens its mail in this tab, a push while the tab is in front refreshes the mail views.
 * Loaded after the page's load event (main.tsx), outside the landing page's budget.
 */
import { Workbox } from "workbox-window";
import { navigate } from "wouter/use-browser-location";
import { isWorkerMessage } from "../../sw/messages.ts";
import { offerUpdate } from "./update-store.ts";

/** A tab left open for days still learns about a new version. */
const UPDATE_CHECK_MS = 60 * 60_000;
/** If the new worker never says it took over, reload anyway rather than leave a dead button. */
const TAKEOVER_TIMEOUT_MS = 4000;
/** The dashboard's window event that re-reads the mail (lib/mail-queries.ts REFRESH_EMAILS_EVENT). */
const REFRESH_EMAILS_EVENT = "refreshEmails";

export async function registerWorker(): Promise<void> {
  const wb = new Workbox("/sw.js", { scope: "/" });
  let registration: ServiceWorkerRegistration | undefined;

  wb.addEventListener("waiting", () => {
    offerUpdate(() => {
      // Another tab may have let it take over already: then this tab only needs the new shell.
      if (!registration?.waiting) {
        window.location.reload();
        return;
      }
      wb.addEventListener("controlling", () => window.location.reload());
      setTimeout(() => window.location.reload(), TAKEOVER_TIMEOUT_MS);
      wb.messageSkipWaiting();
    });
  });

  navigator.serviceWorker.addEventListener("message", (event: MessageEvent<unknown>) => {
    const message = event.data;
    if (!isWorkerMessage(message)) return;
    if (message.type === "mailwise:open") {
      if (message.url.startsWith("/dashboard")) navigate(message.url);
    } else {
      window.dispatchEvent(new Event(REFRESH_EMAILS_EVENT));
    }
  });

  registration = await wb.register();
  setInterval(() => void wb.update().catch(() => undefined), UPDATE_CHECK_MS);
}
