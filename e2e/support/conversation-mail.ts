/**
 * A three-message conversation for the conversation specs: Dana writes, the person replies (a
 * sent message, not in the inbox), Dana answers quoting the reply. Threaded by the emulator from
 * In-Reply-To/References, as Gmail and Outlook thread real mail.
 */
import { expect, type Page } from "@playwright/test";
import {
  createIdentity,
  EMULATOR_URL,
  type MailProvider,
  sessionOverHttp,
  type TestIdentity,
} from "./auth.ts";
import { api, type EmulatorMessage, mailboxMessages } from "./reader-mail.ts";

export const DANA = { name: "Dana Field", address: "dana.field@example.org" };
export const SUBJECT = "Offsite plan";
export const FIRST_TEXT = "Shall we book the lake venue for the 14th?";
export const MY_TEXT = "Yes, the 14th works for me. Book it.";
export const LAST_TEXT = "Booked for the 14th, confirmation attached below.";
/** The line of Dana's last message that belongs to its quoted history. */
export const QUOTED_LINE = "> Yes, the 14th works for me. Book it.";

const HOUR = 3_600_000;

async function add(identity: TestIdentity, body: Record<string, unknown>): Promise<EmulatorMessage> {
  const provider = identity.provider === "gmail" ? "google" : "microsoft";
  const res = await fetch(
    `${EMULATOR_URL}/_admin/mailboxes/${encodeURIComponent(identity.email)}/messages?provider=${provider}`,
    { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) },
  );
  if (res.status !== 201) throw new Error(`emulator refused the message: ${res.status} ${await res.text()}`);
  return (await res.json()) as EmulatorMessage;
}

function rfc2822(ms: number): string {
  return new Date(ms).toUTCString().replace("GMT", "+0000");
}

export interface ConversationMail {
  identity: TestIdentity;
  sessionToken: string;
  first: EmulatorMessage;
  mine: EmulatorMessage;
  last: EmulatorMessage;
}

/** A list row as GET /api/emails?view=conversations answers it (the fields the specs read). */
export interface ConversationRow {
  id: string;
  subject: string;
  conversationId: string;
  conversation?: { id: string; count: number; participants: string; unread: boolean };
}

/**
 * A fresh identity on `provider` with the conversation delivered and synced (one conversation row
 * of three messages), signed in over HTTP; the dashboard is not opened yet.
 */
export async function conversationMailbox(page: Page, provider: MailProvider): Promise<ConversationMail> {
  const identity = await createIdentity(provider);
  const now = Date.now();
  // Dana's first message was read before: it opens collapsed.
  const first = await add(identity, {
    from: DANA,
    subject: SUBJECT,
    text: FIRST_TEXT,
    labelIds: ["INBOX", "CATEGORY_PERSONAL"],
    internalDate: now - 3 * HOUR,
  });
  const myDomain = identity.email.split("@")[1] ?? "example.com";
  const myMessageId = `<reply-${now}@${myDomain}>`;
  const raw = [
    `From: ${identity.name} <${identity.email}>`,
    `To: ${DANA.name} <${DANA.address}>`,
    `Subject: Re: ${SUBJECT}`,
    `Date: ${rfc2822(now - 2 * HOUR)}`,
    `Message-ID: ${myMessageId}`,
    `In-Reply-To: ${first.messageId}`,
    `References: ${first.messageId}`,
    "MIME-Version: 1.0",
    'Content-Type: text/plain; charset="UTF-8"',
    "",
    MY_TEXT,
    "",
  ].join("\r\n");
  const mine = await add(identity, { raw, labelIds: ["SENT"], internalDate: now - 2 * HOUR });
  const last = await add(identity, {
    from: DANA,
    subject: `Re: ${SUBJECT}`,
    text: `${LAST_TEXT}\n\nOn ${rfc2822(now - 2 * HOUR)}, ${identity.name} <${identity.email}> wrote:\n${QUOTED_LINE}\n`,
    headers: { "In-Reply-To": mine.messageId, References: `${first.messageId} ${mine.messageId}` },
    internalDate: now - HOUR,
  });
  const sessionToken = await sessionOverHttp(page, identity.email);
  await expect
    .poll(
      async () => {
        const { emails } = await api<{ emails: ConversationRow[] }>(
          page,
          "/api/emails?view=conversations&limit=50",
          sessionToken,
        );
        return emails.map((e) => e.conversation?.count ?? 0);
      },
      { timeout: 30_000, message: "the sync should bring the conversation in as one row of three" },
    )
    .toEqual([3]);
  return { identity, sessionToken, first, mine, last };
}

/** The labels of one emulator message (folders as labels on Outlook), for expect.poll. */
export async function labelsOfMessage(identity: TestIdentity, id: string): Promise<string[]> {
  const found = (await mailboxMessages(identity)).find((m) => m.id === id);
  return found?.labelIds ?? [];
}
