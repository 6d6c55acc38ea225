import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emailSchema } from "../../../contract/mail.ts";
import { dueActions } from "../../db/schema.ts";
import { PEOPLE } from "../../test/auth-fixture.ts";
import { callApi, emulatorProvider, type Provider } from "../../test/slow-provider.ts";
import { type SyncFixture, startSyncFixture, waitUntil } from "../../test/sync-fixture.ts";
import { FOLLOWUP_ACTION } from "./followup-service.ts";

const DAY = 24 * 3600;

/**
 * Follow-up reminders (issue 37): "Remind me if no reply in" stores a followup.check due action
 * when the mail goes; at its time, with no reply from a recipient, the sent mail is back in the
 * inbox at the provider, marked "No reply yet"; a reply that sync brings first cancels it.
 */
describe("follow-up reminders (pglite)", () => {
  let f: SyncFixture;
  const senders: Record<Provider, string> = { gmail: PEOPLE.alex, outlook: PEOPLE.jordan };
  const recipients: Record<Provider, string> = { gmail: PEOPLE.priya, outlook: PEOPLE.casey };
  const people: Partial<Record<Provider, { token: string; accountId: string; userId: string }>> = {};

  beforeAll(async () => {
    f = await startSyncFixture("pglite");
  }, 180_000);
  afterAll(async () => {
    await f?.close();
  });

  async function person(provider: Provider) {
    const known = people[provider];
    if (known) return known;
    const signed = await f.signIn(provider, senders[provider]);
    // Sent at once: these tests are about what follows the send.
    await callApi(f, "PATCH", "/api/settings/mail", signed.token, { sendDelaySeconds: 0 });
    people[provider] = signed;
    return signed;
  }

  /** Sends with a reminder; answers the reminder's Message-ID (its ref). */
  async function sendWithReminder(provider: Provider, subject: string, days: 1 | 3 | 7): Promise<string> {
    const { token, userId } = await person(provider);
    const r = await callApi(f, "POST", "/api/emails/send", token, {
      to: recipients[provider],
      subject,
      body: "Any news?",
      followUp: { days },
    });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    return waitUntil(
      async () => {
        const rows = await f.database.database.db
          .select({ ref: dueActions.ref, runAt: dueActions.runAt })
          .from(dueActions)
          .where(and(eq(dueActions.userId, userId), eq(dueActions.kind, FOLLOWUP_ACTION)));
        const mine = rows.find((row) => row.ref && !seen.has(row.ref));
        if (!mine?.ref) return undefined;
        seen.add(mine.ref);
        expect(mine.runAt.getTime() - f.services.clock.nowMs()).toBeGreaterThan(days * DAY * 1000 - 60_000);
        return mine.ref;
      },
      10_000,
      "the reminder",
    );
  }
  const seen = new Set<string>();

  async function syncedRow(provider: Provider, messageId: string) {
    const { token, accountId } = await person(provider);
    await callApi(f, "POST", "/api/emails/auto-sync", token);
    return waitUntil(
      async () => (await f.rows(accountId)).find((row) => row.internetMessageId === messageId),
      20_000,
      "the sent mail to sync",
    );
  }

  async function senderCopy(provider: Provider, subject: string) {
    const r = await f.admin(
      "GET",
      `mailboxes/${encodeURIComponent(senders[provider])}?limit=1000&provider=${emulatorProvider(provider)}`,
    );
    return (r.json as { messages: Array<{ subject: string; labelIds: string[] }> }).messages.find(
      (m) => m.subject === subject,
    );
  }

  async function reminderLeft(messageId: string): Promise<boolean> {
    const rows = await f.database.database.db
      .select({ id: dueActions.id })
      .from(dueActions)
      .where(and(eq(dueActions.kind, FOLLOWUP_ACTION), eq(dueActions.ref, messageId)));
    return rows.length > 0;
  }

  /** The recipient answers the Gmail sender's mail (threaded by its headers); a sync brings it in. */
  async function replyAndSync(subject: string, messageId: string, text: string): Promise<void> {
    const reply = await f.admin(
      "POST",
      `mailboxes/${encodeURIComponent(senders.gmail)}/messages?provider=google`,
      {
        from: { address: recipients.gmail },
        subject: `Re: ${subject}`,
        text,
        headers: { "In-Reply-To": messageId, References: messageId },
        internalDate: f.services.clock.nowMs() + 60_000,
      },
    );
    expect(reply.status).toBe(201);
    await callApi(f, "POST", "/api/emails/auto-sync", (await person("gmail")).token);
  }

  for (const provider of ["gmail", "outlook"] as const) {
    it(`${provider}: no reply in a day, the conversation is back in the inbox marked "No reply yet"`, async () => {
      const { token } = await person(provider);
      const subject = `Nudge ${provider} ${Date.now()}`;
      const messageId = await sendWithReminder(provider, subject, 1);
      const row = await syncedRow(provider, messageId);
      expect(row.inInbox).toBe(false);
      expect((await senderCopy(provider, subject))?.labelIds).not.toContain("INBOX");

      f.services.clock.advance(DAY + 60);
      await waitUntil(
        async () => (await senderCopy(provider, subject))?.labelIds.includes("INBOX"),
        15_000,
        "the sent mail back in the inbox",
      );
      const shown = await waitUntil(
        async () => {
          const r = await callApi(f, "GET", `/api/emails/${row.id}`, token);
          const email = r.status === 200 ? emailSchema.parse(r.json) : undefined;
          return email?.resurfaceReason ? email : undefined;
        },
        10_000,
        "the marker",
      );
      expect(shown.resurfaceReason).toBe("no_reply");
      expect(shown.isArchived).toBe(false);
      const inbox = await callApi(f, "GET", `/api/emails?q=${encodeURIComponent(subject)}`, token);
      const listed = (inbox.json as { emails: Array<{ id: string; resurfaceReason?: string }> }).emails;
      expect(listed.find((e) => e.id === row.id)?.resurfaceReason).toBe("no_reply");
    }, 60_000);
  }

  it("a reply from a recipient cancels the reminder; nothing comes back", async () => {
    const subject = `Answered ${Date.now()}`;
    const messageId = await sendWithReminder("gmail", subject, 3);
    await syncedRow("gmail", messageId);
    await replyAndSync(subject, messageId, "Here is the news.");
    await waitUntil(async () => !(await reminderLeft(messageId)), 20_000, "the reminder to be cancelled");
    f.services.clock.advance(3 * DAY + 60);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect((await senderCopy("gmail", subject))?.labelIds).not.toContain("INBOX");
  }, 60_000);

  it('a reply from a recipient after the mail came back "No reply yet" clears the mark', async () => {
    const { token } = await person("gmail");
    const subject = `Late answer ${Date.now()}`;
    const messageId = await sendWithReminder("gmail", subject, 1);
    const row = await syncedRow("gmail", messageId);
    f.services.clock.advance(DAY + 60);
    const reasonOf = async () => {
      const r = await callApi(f, "GET", `/api/emails/${row.id}`, token);
      return r.status === 200 ? (emailSchema.parse(r.json).resurfaceReason ?? null) : undefined;
    };
    await waitUntil(async () => ((await reasonOf()) === "no_reply" ? true : undefined), 15_000, "the marker");

    await replyAndSync(subject, messageId, "Sorry, here it is.");
    await waitUntil(async () => ((await reasonOf()) === null ? true : undefined), 20_000, "the mark cleared");
    const listed = await callApi(f, "GET", `/api/emails?q=${encodeURIComponent(subject)}`, token);
    const rows = (listed.json as { emails: Array<{ id: string; resurfaceReason?: string | null }> }).emails;
    expect(rows.find((e) => e.id === row.id)?.resurfaceReason ?? null).toBeNull();
  }, 60_000);

  it("a reminder date before the send, or over a year ahead, is refused", async () => {
    const { token } = await person("outlook");
    const base = { to: recipients.outlook, subject: "x", body: "y" };
    const before = await callApi(f, "POST", "/api/emails/send", token, {
      ...base,
      followUp: { at: new Date(f.services.clock.nowMs() - 60_000).toISOString() },
    });
    expect(before.status).toBe(400);
    const far = await callApi(f, "POST", "/api/emails/send", token, {
      ...base,
      followUp: { at: new Date(f.services.clock.nowMs() + 400 * DAY * 1000).toISOString() },
    });
    expect(far.status).toBe(400);
    const odd = await callApi(f, "POST", "/api/emails/send", token, { ...base, followUp: { days: 2 } });
    expect(odd.status).toBe(400);
  });
});
