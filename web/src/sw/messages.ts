/**
 * Messages between the service worker and the pages it controls (issue 38). Kept apart from the
 * worker so the page's code can import the shapes without the worker's globals.
 */
import type { MailPush } from "./push-notification.ts";

/** The worker to a focused page: a push arrived while the person is looking at the app. */
export interface PushReceivedMessage {
  type: "mailwise:push";
  push: MailPush;
}

/** The worker to a page after a notification click: show this mail in the reader. */
export interface OpenUrlMessage {
  type: "mailwise:open";
  url: string;
}

export type WorkerToPageMessage = PushReceivedMessage | OpenUrlMessage;

/** workbox-window's `messageSkipWaiting()` sends exactly this. */
export const SKIP_WAITING = "SKIP_WAITING";

/** A page-side check of what came from the worker. */
export function isWorkerMessage(data: unknown): data is WorkerToPageMessage {
  if (typeof data !== "object" || data === null) return false;
  const type = (data as { type?: unknown }).type;
  return type === "mailwise:push" || type === "mailwise:open";
}
