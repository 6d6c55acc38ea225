/// <reference lib="webworker" />
/**
 * Mailwise's service worker (issue 38, decision 0076), built by vite-plugin-pwa (injectManifest):
 * - precaches the app shell (the built scripts, styles, index.html, icons) so the app opens offline;
 * - answers navigations to app routes with the cached index.html; /api and the health checks always
 *   go to the network, and no API answer is ever stored here (the last inbox offline comes from the
 *   page's own persisted list, web/src/lib/persisted-queries.ts);
 * - a new version waits until the page's "Reload" asks it to take over (no stale shell, no surprise
 *   reload in the middle of work);
 * - shows a notification for a Web Push of new mail, and opens that mail when it is clicked.
 */
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from "workbox-precaching";
import { NavigationRoute, registerRoute } from "workbox-routing";
import { type OpenUrlMessage, type PushReceivedMessage, SKIP_WAITING } from "./messages.ts";
import { mailNotification, parseMailPush } from "./push-notification.ts";

declare const self: ServiceWorkerGlobalScope;

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
registerRoute(
  new NavigationRoute(createHandlerBoundToURL("index.html"), {
    denylist: [/^\/api(\/|$)/, /^\/healthz$/, /^\/readyz$/],
  }),
);

// The first version controls the page that installed it at once; later versions wait for Reload.
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("message", (event) => {
  if ((event.data as { type?: unknown } | null)?.type === SKIP_WAITING) void self.skipWaiting();
});

function windows(): Promise<readonly WindowClient[]> {
  return self.clients.matchAll({ type: "window", includeUncontrolled: true });
}

async function onPush(data: PushMessageData | null): Promise<void> {
  let json: unknown = null;
  try {
    json = data?.json();
  } catch {
    return; // not JSON: not ours to show
  }
  const push = parseMailPush(json);
  if (!push) return;
  // Someone is looking at Mailwise: the page shows the mail itself, no system notification.
  const focused = (await windows()).find((c) => c.focused && c.visibilityState === "visible" && showsApp(c));
  if (focused) {
    focused.postMessage({ type: "mailwise:push", push } satisfies PushReceivedMessage);
    return;
  }
  const { title, options } = mailNotification(push);
  await self.registration.showNotification(title, options);
}

self.addEventListener("push", (event) => event.waitUntil(onPush(event.data)));

/** Only our own reader addresses are opened, whatever a notification's data says. */
function safeUrl(data: unknown): string {
  const url = (data as { url?: unknown } | null)?.url;
  return typeof url === "string" && url.startsWith("/dashboard") ? url : "/dashboard";
}

/** A window showing the app: not a raw file or download the origin served (those cannot route). */
function showsApp(client: WindowClient): boolean {
  const { pathname } = new URL(client.url);
  return !pathname.startsWith("/api/") && !/\.[a-z0-9]+$/i.test(pathname);
}

async function openMail(url: string): Promise<void> {
  const all = (await windows()).filter(showsApp);
  const client =
    all.find((c) => new URL(c.url).pathname === "/dashboard") ?? all.find((c) => c.focused) ?? all[0];
  if (!client) {
    await self.clients.openWindow(url);
    return;
  }
  // The open tab moves to the mail in place (its router), keeping its state and session.
  await client.focus();
  client.postMessage({ type: "mailwise:open", url } satisfies OpenUrlMessage);
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(openMail(safeUrl(event.notification.data)));
});
