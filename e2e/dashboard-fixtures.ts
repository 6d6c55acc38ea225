/**
 * Mail for the dashboard specs: each test gets its own emulator identity and fills its mailbox
 * through the emulator's admin API before signing in, so the first sync brings it in.
 */
import { expect, type Page } from "@playwright/test";
import { createIdentity, EMULATOR_URL, type MailProvider, type TestIdentity } from "./support/auth.ts";

export interface NewMessage {
  from: { name?: string; address: string };
  subject: string;
  text?: string;
  labelIds?: string[];
  /** Milliseconds since the epoch; later messages sort first. */
  internalDate?: number;
}

export interface MailboxSummary {
  messagesTotal: number;
  labels: Record<string, { total: number; unread: number }>;
  messages: Array<{ id: string; subject: string; labelIds: string[] }>;
}

async function adminJson<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${EMULATOR_URL}${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`emulator ${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

export function addMessage(email: string, message: NewMessage): Promise<{ id: string }> {
  return adminJson("POST", `/_admin/mailboxes/${encodeURIComponent(email)}/messages`, message);
}

export function addRaw(email: string, raw: string, internalDate?: number): Promise<{ id: string }> {
  return adminJson("POST", `/_admin/mailboxes/${encodeURIComponent(email)}/messages`, {
    raw,
    labelIds: ["INBOX", "UNREAD"],
    ...(internalDate === undefined ? {} : { internalDate }),
  });
}

export function mailbox(email: string, limit = 200): Promise<MailboxSummary> {
  return adminJson("GET", `/_admin/mailboxes/${encodeURIComponent(email)}?limit=${limit}`);
}

export function generate(email: string, count: number, seed = 7): Promise<unknown> {
  return adminJson("POST", `/_admin/mailboxes/${encodeURIComponent(email)}/generate`, {
    count,
    seed,
    days: 365,
  });
}

/** A seeded demo mailbox (SpamAssassin corpus); read only, never changed. */
const CORPUS_SOURCE = "alex.morgan@gmail.com";

/** Copies real corpus messages (their raw MIME) into a test mailbox. */
export async function copyCorpusMail(to: string, count: number): Promise<number> {
  const source = await mailbox(CORPUS_SOURCE, count);
  let copied = 0;
  for (const summary of source.messages.slice(0, count)) {
    const full = await adminJson<{ raw: string; internalDate: number }>(
      "GET",
      `/_admin/mailboxes/${encodeURIComponent(CORPUS_SOURCE)}/messages/${summary.id}`,
    );
    await addRaw(to, full.raw, full.internalDate);
    copied++;
  }
  return copied;
}

/** A person only this test uses, with the given mail already in their inbox. */
export async function identityWithMail(
  messages: NewMessage[],
  provider: MailProvider = "gmail",
  givenName = "Dana",
): Promise<TestIdentity> {
  const identity = await createIdentity(provider, givenName);
  const start = Date.now() - messages.length * 60_000;
  for (const [i, m] of messages.entries()) {
    await addMessage(identity.email, { internalDate: start + i * 60_000, ...m });
  }
  return identity;
}

/** Answers the cookie notice up front so it never covers the dashboard's lower half. */
export async function acceptCookies(page: Page): Promise<void> {
  await page.addInitScript(() => localStorage.setItem("cookieConsent", "accepted"));
}

/** Calls our API from the page, with the page's session token. */
export async function api<T>(page: Page, path: string): Promise<T> {
  return page.evaluate(async (p) => {
    const res = await fetch(p, {
      headers: { Authorization: `Bearer ${localStorage.getItem("sessionToken")}` },
    });
    if (!res.ok) throw new Error(`${p}: ${res.status}`);
    return res.json();
  }, path);
}

/** Waits until the server has synced at least `count` inbox emails for the signed-in user. */
export async function waitForSyncedEmails(page: Page, count: number, timeout = 30_000): Promise<void> {
  await expect
    .poll(async () => (await api<{ totalEmails: number }>(page, "/api/emails/stats")).totalEmails, {
      timeout,
    })
    .toBeGreaterThanOrEqual(count);
}

/**
 * Waits until no account syncs or backfills: a sync that ends after a page loaded refreshes its
 * lists (web/src/lib/mail-queries.ts), so tests that count reads start from a quiet mailbox.
 */
export async function waitForSyncIdle(page: Page, timeout = 30_000): Promise<void> {
  await expect
    .poll(
      async () =>
        (await api<{ accounts: { status: string }[] }>(page, "/api/emails/sync-status")).accounts.map(
          (a) => a.status,
        ),
      { timeout },
    )
    .not.toContainEqual(expect.stringMatching(/^(syncing|backfilling)$/));
}

/** The rows of the unified inbox list. */
export function inboxRows(page: Page) {
  return page.locator("#inbox [data-email-id]");
}

/** A plain message from "Sender i". */
export const note = (subject: string, i: number): NewMessage => ({
  from: { name: `Sender ${i}`, address: `sender${i}@gmail.com` },
  subject,
  text: `Body of ${subject}`,
});

/** Messages that land in a known bucket (provider category labels and the classifier's cues). */
export const BUCKET_MAIL = {
  personal: (i: number): NewMessage => ({
    from: { name: `Friend ${i}`, address: `friend${i}@gmail.com` },
    subject: `Re: dinner plans ${i}`,
    text: `Thanks for last week, see you soon (${i}).`,
    labelIds: ["INBOX", "UNREAD", "CATEGORY_PERSONAL"],
  }),
  work: (i: number): NewMessage => ({
    from: { name: "Project Lead", address: `lead${i}@contoso-corp.example` },
    subject: `Project meeting agenda ${i}`,
    text: "Please review the budget before the client meeting.",
    labelIds: ["INBOX", "UNREAD", "CATEGORY_PERSONAL"],
  }),
  promotions: (i: number): NewMessage => ({
    from: { name: "Wingtip Deals", address: "deals@wingtip.example" },
    subject: `Flash sale ${i}: 40% off everything`,
    text: "Limited time offer.",
    labelIds: ["INBOX", "UNREAD", "CATEGORY_PROMOTIONS"],
  }),
} as const;
