import { describe, expect, it } from "vitest";
import {
  conversationListResponseSchema,
  conversationSchema,
  mailSettingsSchema,
} from "../../../contract/conversations.ts";
import { inboxZeroQueueSchema } from "../../../contract/inbox-zero.ts";
import { emailListResponseSchema } from "../../../contract/mail.ts";
import { apiSuite } from "../../test/api-suite.ts";
import { BACKENDS } from "../../test/databases.ts";
import { type AccountRow, createEmail, signedInUser } from "../../test/factories.ts";

const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);

describe.each(BACKENDS)("conversations API on %s", (kind) => {
  const suite = apiSuite(kind);
  const { api } = suite;

  /**
   * Dana writes (read, archived), the person replies (sent mail), Dana answers (unread, in the
   * inbox, with an attachment); plus two single messages around it.
   */
  async function mailbox(account: AccountRow, thread = "t-offsite") {
    const base = { threadId: thread, subject: "Re: Offsite agenda" };
    const first = await createEmail(suite.db, account, {
      ...base,
      subject: "Offsite agenda",
      fromName: "Dana Ruiz",
      fromAddress: "dana@example.org",
      receivedAt: minutesAgo(300),
      isRead: true,
      inInbox: false,
      bodyText: "Could you look over the agenda?",
    });
    const reply = await createEmail(suite.db, account, {
      ...base,
      fromName: "Me Myself",
      fromAddress: account.email,
      receivedAt: minutesAgo(200),
      isRead: true,
      inInbox: false,
      isSent: true,
      bodyText: "Looks good, agenda approved.",
    });
    const last = await createEmail(suite.db, account, {
      ...base,
      fromName: "Dana Ruiz",
      fromAddress: "DANA@example.org",
      receivedAt: minutesAgo(100),
      isRead: false,
      bodyText: "Done, see the agenda attached.",
      attachments: [{ filename: "agenda.pdf", mimeType: "application/pdf", size: 1000 }],
      hasAttachments: true,
    });
    const newer = await createEmail(suite.db, account, { receivedAt: minutesAgo(50), threadId: null });
    const older = await createEmail(suite.db, account, { receivedAt: minutesAgo(400), isRead: true });
    return { first, reply, last, newer, older };
  }

  async function conversations(token: string, query = "") {
    const r = await api("GET", `/api/emails?view=conversations${query}`, token);
    expect(r.status).toBe(200);
    return conversationListResponseSchema.parse(r.json);
  }

  it("lists one row per conversation, newest first, with its summary; view=messages is unchanged", async () => {
    const { account, token } = await signedInUser(suite.db);
    const m = await mailbox(account);
    const page = await conversations(token);
    expect(page.emails.map((e) => e.id)).toEqual([m.newer.id, m.last.id, m.older.id]);
    const row = page.emails[1];
    expect(row?.conversation).toEqual({
      id: m.last.conversationId,
      count: 3,
      participants: "Dana, me (3)",
      unread: true,
      hasAttachments: true,
    });
    expect(row?.conversationId).toBe(m.first.conversationId);
    // A message without a thread is a conversation of its own.
    expect(page.emails[0]?.conversation).toMatchObject({ id: m.newer.id, count: 1, participants: "Pat" });

    const messages = emailListResponseSchema.parse((await api("GET", "/api/emails", token)).json);
    expect(messages.emails.map((e) => e.id)).toEqual([m.newer.id, m.last.id, m.older.id]);
    expect(messages.emails[0]).not.toHaveProperty("conversation");
    const all = emailListResponseSchema.parse(
      (await api("GET", "/api/emails?includeArchived=true", token)).json,
    );
    expect(all.emails).toHaveLength(5);
    const allConversations = await conversations(token, "&includeArchived=true");
    expect(allConversations.emails.map((e) => e.id)).toEqual([m.newer.id, m.last.id, m.older.id]);
  });

  it("pages cover every conversation once", async () => {
    const { account, token } = await signedInUser(suite.db);
    const m = await mailbox(account);
    const ids: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 10; i += 1) {
      const page = await conversations(token, `&limit=1${cursor ? `&cursor=${cursor}` : ""}`);
      ids.push(...page.emails.map((e) => e.id));
      cursor = page.nextCursor;
      if (!cursor) break;
    }
    expect(ids).toEqual([m.newer.id, m.last.id, m.older.id]);
  });

  it("search and buckets group the same way: the newest matching message stands for its conversation", async () => {
    const { account, token } = await signedInUser(suite.db);
    const m = await mailbox(account);
    const found = await conversations(token, "&q=agenda&includeArchived=true");
    expect(found.emails.map((e) => e.id)).toEqual([m.last.id]);
    expect(found.emails[0]?.conversation.count).toBe(3);
    const approved = await conversations(token, "&q=approved&includeArchived=true");
    expect(approved.emails.map((e) => e.id)).toEqual([m.reply.id]);
    const bucket = await conversations(token, "&bucket=personal");
    expect(bucket.emails.map((e) => e.id)).toEqual([m.newer.id, m.last.id, m.older.id]);
  });

  it("opens a conversation oldest to newest with bodies, sent and archived mail included", async () => {
    const { account, token } = await signedInUser(suite.db);
    const m = await mailbox(account);
    // The provider is unreachable here: the stored messages are shown regardless.
    const r = await api("GET", `/api/conversations/${m.last.conversationId}`, token);
    expect(r.status).toBe(200);
    const conversation = conversationSchema.parse(r.json);
    expect(conversation.subject).toBe("Offsite agenda");
    expect(conversation.messages.map((e) => e.id)).toEqual([m.first.id, m.reply.id, m.last.id]);
    expect(conversation.messages[1]?.bodyText).toBe("Looks good, agenda approved.");
  });

  it("another user's conversation, or no uuid, is 404; a bad change is 400", async () => {
    const { account } = await signedInUser(suite.db);
    const m = await mailbox(account);
    const other = await signedInUser(suite.db);
    const id = m.last.conversationId;
    for (const [method, body] of [
      ["GET", undefined],
      ["PATCH", { isRead: true }],
      ["DELETE", undefined],
    ] as const) {
      const r = await api(method, `/api/conversations/${id}`, other.token, body);
      expect(r.status, method).toBe(404);
      expect(r.json).toMatchObject({ error: { code: "not_found" } });
    }
    expect((await api("GET", "/api/conversations/not-a-uuid", other.token)).status).toBe(404);
    const { token } = await signedInUser(suite.db);
    expect((await api("PATCH", `/api/conversations/${id}`, token, {})).status).toBe(400);
    expect((await api("PATCH", `/api/conversations/${id}`, token, { isStarred: true })).status).toBe(400);
    expect((await api("GET", "/api/emails?view=threads", token)).status).toBe(400);
    // Nothing of the owner's changed.
    const owner = conversationSchema.parse(
      (await api("GET", `/api/conversations/${id}`, await tokenOf(account))).json,
    );
    expect(owner.messages.map((e) => e.isRead)).toEqual([true, true, false]);
  });

  async function tokenOf(account: AccountRow): Promise<string> {
    const { sessionFor } = await import("../../test/factories.ts");
    return sessionFor(suite.db, account.userId);
  }

  it("stores the Conversation view setting per user, on by default", async () => {
    const a = await signedInUser(suite.db);
    const b = await signedInUser(suite.db);
    // The Undo send delay (issue 36) shares the settings: 10 s by default.
    expect(mailSettingsSchema.parse((await api("GET", "/api/settings/mail", a.token)).json)).toEqual({
      conversationView: true,
      sendDelaySeconds: 10,
    });
    const off = await api("PATCH", "/api/settings/mail", a.token, { conversationView: false });
    expect(off.json).toEqual({ conversationView: false, sendDelaySeconds: 10 });
    expect((await api("GET", "/api/settings/mail", a.token)).json).toEqual({
      conversationView: false,
      sendDelaySeconds: 10,
    });
    expect((await api("GET", "/api/settings/mail", b.token)).json).toEqual({
      conversationView: true,
      sendDelaySeconds: 10,
    });
    expect((await api("PATCH", "/api/settings/mail", a.token, { conversationView: "no" })).status).toBe(400);
    expect((await api("PATCH", "/api/settings/mail", a.token, { other: true })).status).toBe(400);
  });

  it("Inbox Zero shows one card per conversation and still counts every email", async () => {
    const { account, token } = await signedInUser(suite.db);
    const older = await createEmail(suite.db, account, {
      threadId: "t-iz",
      receivedAt: minutesAgo(30),
      isRead: false,
    });
    const newer = await createEmail(suite.db, account, {
      threadId: "t-iz",
      receivedAt: minutesAgo(20),
      isRead: false,
    });
    const single = await createEmail(suite.db, account, { receivedAt: minutesAgo(40), isRead: false });
    const queue = inboxZeroQueueSchema.parse((await api("GET", "/api/inbox-zero/queue", token)).json);
    expect(queue.emails.map((e) => e.id)).toEqual([newer.id, single.id]);
    expect(queue.remaining).toBe(3);
    // Once the newest is processed, the conversation's older email takes its place.
    await api("PUT", `/api/inbox-zero/processed/${newer.id}`, token);
    const next = inboxZeroQueueSchema.parse((await api("GET", "/api/inbox-zero/queue", token)).json);
    expect(next.emails.map((e) => e.id)).toEqual([older.id, single.id]);
  });
});
