import AxeBuilder from "@axe-core/playwright";
/**
 * Mail fixtures for the reader, compose and security specs: deliver mail into a fresh emulator
 * mailbox, wait for the sync to bring it in, open it on the dashboard, and read the mailbox back.
 */
import { expect, type Page } from "@playwright/test";
import {
  createIdentity,
  EMULATOR_URL,
  type MailProvider,
  openDashboardWith,
  sessionOverHttp,
  type TestIdentity,
} from "./auth.ts";

export interface Delivery {
  from: { name?: string; address: string };
  subject: string;
  text?: string;
  html?: string;
  headers?: Record<string, string>;
  labelIds?: string[];
}

/** The emulator's view of one message. */
export interface EmulatorMessage {
  id: string;
  threadId: string;
  labelIds: string[];
  /** labelIds with user labels by name (the emulator's admin view). */
  labelNames: string[];
  subject: string;
  from: string;
  to: string;
  messageId: string;
}

/** The app's Email (contract/mail.ts) as the tests need it. */
export interface AppEmail {
  id: string;
  subject: string;
  from: string;
  fromAddress: string;
  to: string;
  snippet: string;
  bodyText: string | null;
  bodyHtml: string | null;
  isRead: boolean;
  threadId: string | null;
}

const providerParam = (identity: TestIdentity) => (identity.provider === "gmail" ? "google" : "microsoft");

export async function deliver(
  identity: TestIdentity,
  message: Delivery | { raw: string },
): Promise<EmulatorMessage> {
  const res = await fetch(
    `${EMULATOR_URL}/_admin/mailboxes/${encodeURIComponent(identity.email)}/messages?provider=${providerParam(identity)}`,
    { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(message) },
  );
  if (res.status !== 201) throw new Error(`emulator refused the message: ${res.status} ${await res.text()}`);
  return (await res.json()) as EmulatorMessage;
}

/** Every message in the emulator mailbox (optionally one label), newest first. */
export async function mailboxMessages(identity: TestIdentity, label?: string): Promise<EmulatorMessage[]> {
  const search = new URLSearchParams({ provider: providerParam(identity), limit: "200" });
  if (label) search.set("label", label);
  const res = await fetch(`${EMULATOR_URL}/_admin/mailboxes/${encodeURIComponent(identity.email)}?${search}`);
  if (!res.ok) throw new Error(`emulator mailbox: ${res.status}`);
  return ((await res.json()) as { messages: EmulatorMessage[] }).messages;
}

/** Mailwise's flag on Gmail: a user label of this name (decision 0037), never IMPORTANT. */
export const GMAIL_FLAG_LABEL = "Flagged by Mailwise";

/** The labels of one emulator message, user labels by name, for expect.poll. */
export async function labelsOf(identity: TestIdentity, id: string): Promise<string[]> {
  const found = (await mailboxMessages(identity)).find((m) => m.id === id);
  return found?.labelNames ?? [];
}

async function token(page: Page): Promise<string> {
  const t = await page.evaluate(() => localStorage.getItem("sessionToken"));
  if (!t) throw new Error("no session token stored");
  return t;
}

/** GET on the app's API with the stored session token (or the one given). */
export async function api<T>(page: Page, path: string, sessionToken?: string): Promise<T> {
  const bearer = sessionToken ?? (await token(page));
  const res = await page.request.get(path, { headers: { Authorization: `Bearer ${bearer}` } });
  if (!res.ok()) throw new Error(`${path}: ${res.status()} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Waits until the sync brought in every subject; returns the app's emails by subject. */
export async function waitForSynced(
  page: Page,
  subjects: string[],
  sessionToken?: string,
): Promise<Map<string, AppEmail>> {
  let bySubject = new Map<string, AppEmail>();
  await expect
    .poll(
      async () => {
        const { emails } = await api<{ emails: AppEmail[] }>(page, "/api/emails?limit=200", sessionToken);
        bySubject = new Map(emails.map((e) => [e.subject, e]));
        return subjects.filter((s) => !bySubject.has(s));
      },
      { timeout: 20_000, message: "the sync should bring the delivered mail in" },
    )
    .toEqual([]);
  return bySubject;
}

/**
 * A fresh identity whose mailbox holds exactly these messages, signed in on the dashboard with
 * the mail synced and listed.
 */
export async function signedInWithMail(
  page: Page,
  messages: (Delivery | { raw: string; subject: string })[],
  provider: MailProvider = "gmail",
) {
  const identity = await createIdentity(provider);
  const delivered = new Map<string, EmulatorMessage>();
  for (const m of messages) {
    const summary = await deliver(identity, "raw" in m ? { raw: m.raw } : m);
    delivered.set(m.subject, summary);
    // Specs read "newest first" off the delivery order: the provider stamps mail to the
    // millisecond (the emulator's clock is the wall clock plus a fixed offset), and two deliveries
    // inside one millisecond would tie, which the app breaks by id, at random. A fresh-clone run
    // saw exactly that once.
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  // Signed in over HTTP and the dashboard opened only once the sync holds the mail, so the first
  // list the page reads is complete.
  const sessionToken = await sessionOverHttp(page, identity.email);
  const emails = await waitForSynced(
    page,
    messages.map((m) => m.subject),
    sessionToken,
  );
  await openDashboardWith(page, sessionToken);
  return { identity, emails, delivered };
}

/** The app's email for a subject (fails the test when it is missing). */
export function emailOf(emails: Map<string, AppEmail>, subject: string): AppEmail {
  const e = emails.get(subject);
  if (!e) throw new Error(`no email with subject ${subject}`);
  return e;
}

/** Opens an email from the inbox list; returns the reader dialog. */
export async function openEmail(page: Page, email: AppEmail) {
  const row = page.locator(`[data-email-id="${email.id}"]`).first();
  await expect(row).toBeVisible({ timeout: 15_000 });
  await row.click();
  const dialog = page.getByRole("dialog", { name: email.subject });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** axe on one dialog only: the page behind it is dimmed by the overlay (and not ours to judge). */
export async function expectAccessibleDialog(page: Page, selector = "[role=dialog]"): Promise<void> {
  const results = await new AxeBuilder({ page })
    .include(selector)
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .analyze();
  const blocking = results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ rule: v.id, targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")) }));
  expect(blocking, "serious or critical accessibility violations in the dialog").toEqual([]);
}
