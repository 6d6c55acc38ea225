/**
 * What a Web Push of new mail shows (issue 38). The payload is helper-F's contract
 * (contract/notifications.ts `pushPayloadSchema`): `{type: "mail", emailId, from, subject}`, never a
 * body. Checked by hand here so the worker does not carry zod; this module uses nothing of the DOM
 * or the worker, so it runs in both and in unit tests.
 */

/** A push about one new mail. */
export interface MailPush {
  type: "mail";
  emailId: string;
  from: string;
  subject: string;
}

/** What `registration.showNotification(title, options)` gets. */
export interface MailNotification {
  title: string;
  options: {
    body: string;
    /** One notification per mail: a repeated push replaces it instead of stacking. */
    tag: string;
    icon: string;
    badge: string;
    data: { url: string; emailId: string };
  };
}

/** Senders write these texts: a notification shows a line, not a novel. */
const MAX_TEXT = 200;
const MAX_ID = 512;

function text(value: unknown): string | null {
  if (typeof value !== "string") return null;
  return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT - 1)}…` : value;
}

/** The push's JSON as a MailPush, or null when it is anything else (ignored, never shown half-read). */
export function parseMailPush(data: unknown): MailPush | null {
  if (typeof data !== "object" || data === null) return null;
  const record = data as Record<string, unknown>;
  const { type, emailId } = record;
  if (type !== "mail" || typeof emailId !== "string" || emailId === "" || emailId.length > MAX_ID)
    return null;
  const from = text(record.from);
  const subject = text(record.subject);
  if (from === null || subject === null) return null;
  return { type, emailId, from, subject };
}

/** The reader's address for one mail: the dashboard opens it from `?email=`. */
export function readerUrl(emailId: string): string {
  return `/dashboard?email=${encodeURIComponent(emailId)}`;
}

/** Title is the sender, body the subject, one tag per mail; a click opens the mail in the reader. */
export function mailNotification(push: MailPush): MailNotification {
  return {
    title: push.from.trim() || "New mail",
    options: {
      body: push.subject.trim() || "(no subject)",
      tag: push.emailId,
      icon: "/icons/icon-192.png",
      badge: "/icons/maskable-192.png",
      data: { url: readerUrl(push.emailId), emailId: push.emailId },
    },
  };
}
