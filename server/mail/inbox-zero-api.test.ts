import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { inboxZeroProcessedSchema, inboxZeroQueueSchema } from "../../contract/inbox-zero.ts";
import { emails } from "../db/schema.ts";
import { apiSuite } from "../test/api-suite.ts";
import { BACKENDS } from "../test/databases.ts";
import { createAccount, createEmail, createEmails, signedInUser } from "../test/factories.ts";

describe.each(BACKENDS)("Inbox Zero API on %s", (kind) => {
  const suite = apiSuite(kind);
  const { api } = suite;

  const queue = async (token: string, query = "") => {
    const r = await api("GET", `/api/inbox-zero/queue${query}`, token);
    expect(r.status).toBe(200);
    return inboxZeroQueueSchema.parse(r.json);
  };

  it("queues unread inbox mail of every account, newest first, 10 at a time with the total", async () => {
    const { user, account, token } = await signedInUser(suite.db);
    const outlook = await createAccount(suite.db, user.id, { provider: "outlook" });
    const base = Date.parse("2026-05-01T10:00:00Z");
    // 12 unread in the first account, 3 in the second; interleaved in time.
    const gmail = await createEmails(suite.db, account, 12, (i) => ({
      isRead: false,
      receivedAt: new Date(base - i * 120_000),
    }));
    const other = await createEmails(suite.db, outlook, 3, (i) => ({
      isRead: false,
      receivedAt: new Date(base - i * 120_000 - 60_000),
    }));
    // Not for the mode: read, archived, trashed, spam.
    await createEmail(suite.db, account, { isRead: true, receivedAt: new Date(base + 1000) });
    await createEmail(suite.db, account, {
      isRead: false,
      inInbox: false,
      receivedAt: new Date(base + 2000),
    });
    await createEmail(suite.db, account, {
      isRead: false,
      inInbox: false,
      isTrashed: true,
      receivedAt: new Date(base + 3000),
    });
    await createEmail(suite.db, account, { isRead: false, isSpam: true, receivedAt: new Date(base + 4000) });

    const first = await queue(token);
    expect(first.remaining).toBe(15);
    expect(first.emails).toHaveLength(10);
    const expected = [...gmail, ...other]
      .sort((a, b) => b.receivedAt.getTime() - a.receivedAt.getTime())
      .map((e) => e.id);
    expect(first.emails.map((e) => e.id)).toEqual(expected.slice(0, 10));
    expect(new Set(first.emails.map((e) => e.provider))).toEqual(new Set(["gmail", "outlook"]));
    expect(first.emails.every((e) => !e.isRead && !e.isArchived)).toBe(true);

    const all = await queue(token, "?limit=50");
    expect(all.emails.map((e) => e.id)).toEqual(expected);
  });

  it("carries the account, bucket, AI summary and urgency when the mail was analysed", async () => {
    const { account, token } = await signedInUser(suite.db);
    const analysed = await createEmail(suite.db, account, {
      isRead: false,
      bucket: "work",
      aiAnalysis: {
        summary: "Asks for the signed contract by Friday.",
        urgency: "high",
        importance: 8,
        category: "work",
        keyPoints: ["contract"],
      },
    });
    const plain = await createEmail(suite.db, account, { isRead: false, bucket: "other", aiAnalysis: null });
    const { emails: cards } = await queue(token);
    const a = cards.find((c) => c.id === analysed.id);
    const p = cards.find((c) => c.id === plain.id);
    expect(a).toMatchObject({
      summary: "Asks for the signed contract by Friday.",
      urgency: "high",
      bucket: "work",
      accountEmail: account.email,
      subject: analysed.subject,
      snippet: analysed.snippet,
    });
    // The card gets the list's analysis fields, not the whole stored analysis.
    expect(a?.aiAnalysis).toEqual({ importance: 8, category: "work" });
    expect(p).toMatchObject({ summary: null, urgency: null, bucket: "other", aiAnalysis: null });
  });

  it("a processed email leaves the queue for good; undo puts it back; the first mark is kept", async () => {
    const { account, token } = await signedInUser(suite.db);
    const [a, b] = await createEmails(suite.db, account, 2, () => ({ isRead: false }));
    if (!a || !b) throw new Error("no emails");
    expect((await queue(token)).remaining).toBe(2);

    const marked = await api("PUT", `/api/inbox-zero/processed/${a.id}`, token);
    expect(marked.status).toBe(200);
    const mark = inboxZeroProcessedSchema.parse(marked.json);
    expect(mark.id).toBe(a.id);
    expect(mark.processedAt).not.toBeNull();
    const [stored] = await suite.db.select().from(emails).where(eq(emails.id, a.id));
    expect(stored?.inboxZeroProcessedAt?.toISOString()).toBe(mark.processedAt);

    const after = await queue(token);
    expect(after.remaining).toBe(1);
    expect(after.emails.map((e) => e.id)).toEqual([b.id]);

    // Marking again keeps the first time.
    const again = inboxZeroProcessedSchema.parse(
      (await api("PUT", `/api/inbox-zero/processed/${a.id}`, token)).json,
    );
    expect(again.processedAt).toBe(mark.processedAt);

    // A starred or flagged email stays unread: only the mark keeps it out of the next recheck.
    await suite.db.update(emails).set({ isStarred: true }).where(eq(emails.id, a.id));
    expect((await queue(token)).emails.map((e) => e.id)).toEqual([b.id]);

    const undone = await api("DELETE", `/api/inbox-zero/processed/${a.id}`, token);
    expect(undone.status).toBe(200);
    expect(inboxZeroProcessedSchema.parse(undone.json)).toEqual({ id: a.id, processedAt: null });
    expect((await queue(token)).remaining).toBe(2);
  });

  it("is scoped to the signed-in person: another's email is a 404 and stays unmarked", async () => {
    const me = await signedInUser(suite.db);
    const other = await signedInUser(suite.db);
    const theirs = await createEmail(suite.db, other.account, { isRead: false });
    await createEmail(suite.db, me.account, { isRead: false });

    expect((await queue(me.token)).emails.map((e) => e.id)).not.toContain(theirs.id);
    for (const method of ["PUT", "DELETE"]) {
      const r = await api(method, `/api/inbox-zero/processed/${theirs.id}`, me.token);
      expect(r.status).toBe(404);
      expect(r.json).toEqual({ error: { code: "not_found", message: "No such email." } });
    }
    const [row] = await suite.db.select().from(emails).where(eq(emails.id, theirs.id));
    expect(row?.inboxZeroProcessedAt).toBeNull();
    expect((await queue(other.token)).emails.map((e) => e.id)).toEqual([theirs.id]);
  });

  it("refuses bad input with 4xx and the error shape, and anonymous callers with 401", async () => {
    const { token } = await signedInUser(suite.db);
    for (const q of ["?limit=0", "?limit=51", "?limit=ten"]) {
      const r = await api("GET", `/api/inbox-zero/queue${q}`, token);
      expect(r.status).toBe(400);
      expect((r.json.error as { code: string }).code).toBe("validation_failed");
    }
    const notAnId = await api("PUT", "/api/inbox-zero/processed/not-a-uuid", token);
    expect(notAnId.status).toBe(404);
    const unknown = await api("PUT", "/api/inbox-zero/processed/00000000-0000-4000-8000-000000000000", token);
    expect(unknown.status).toBe(404);
    for (const [method, path] of [
      ["GET", "/api/inbox-zero/queue"],
      ["PUT", "/api/inbox-zero/processed/00000000-0000-4000-8000-000000000000"],
      ["DELETE", "/api/inbox-zero/processed/00000000-0000-4000-8000-000000000000"],
    ] as const) {
      const r = await fetch(`${suite.server.url}${path}`, { method });
      expect(r.status).toBe(401);
    }
  });
});
