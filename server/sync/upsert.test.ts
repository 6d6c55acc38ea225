import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MailProvider } from "../../contract/auth.ts";
import { emails } from "../db/schema.ts";
import { BACKENDS, openTestDatabase, type TestDatabase } from "../test/databases.ts";
import { createAccount, createUser } from "../test/factories.ts";
import { toEmailRow } from "./message-row.ts";
import { providerMessage as message } from "./provider-message.fixture.ts";
import type { SyncAccount } from "./types.ts";
import { insertFresh, upsertPage } from "./upsert.ts";

describe.each(BACKENDS)("upsertPage on %s", (kind) => {
  let t: TestDatabase;
  let account: SyncAccount;
  const rowOf = async (providerId: string) => {
    const [row] = await t.database.db.select().from(emails).where(eq(emails.providerId, providerId));
    return row;
  };

  beforeAll(async () => {
    t = await openTestDatabase(kind);
    const user = await createUser(t.database.db);
    const row = await createAccount(t.database.db, user.id);
    account = { ...row, provider: row.provider as MailProvider };
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("stores every field as given: text that JSON escapes, addresses, labels, dates to the millisecond", async () => {
    const subject = 'Quotes " and \\ backslash, emoji 📬, line\nbreak, \u2028 and ünïcödé';
    await upsertPage(
      t.database.db,
      account,
      [
        message("m1", {
          subject,
          to: [{ name: "Bob O'Brien", address: "bob@example.com" }],
          labels: ["INBOX", 'Label/With "quote"'],
          attachments: [{ filename: "a.pdf", mimeType: "application/pdf", size: 1234 }],
          headers: {
            listUnsubscribe: "<https://example.com/u?a=1&b=2>",
            listUnsubscribePost: "List-Unsubscribe=One-Click",
            authenticationResults: "spf=pass",
            inReplyTo: null,
            references: null,
          },
        }),
      ],
      1,
      new Date(),
    );
    const row = await rowOf("m1");
    expect(row?.subject).toBe(subject);
    expect(row?.toRecipients).toEqual([{ name: "Bob O'Brien", address: "bob@example.com" }]);
    expect(row?.labels).toEqual(["INBOX", 'Label/With "quote"']);
    expect(row?.attachments).toEqual([{ filename: "a.pdf", mimeType: "application/pdf", size: 1234 }]);
    expect(row?.receivedAt.toISOString()).toBe("2026-11-20T10:11:12.345Z");
    expect(row?.listUnsubscribe).toBe("<https://example.com/u?a=1&b=2>");
    expect(row?.syncGeneration).toBe(1);
    expect(row?.userId).toBe(account.userId);
    expect(row?.aiAnalysis).toBeNull();
  });

  it("updates a known message in place and keeps what other features own", async () => {
    const before = await rowOf("m1");
    await t.database.db
      .update(emails)
      .set({ aiAnalysis: { category: "work", importance: 7 } })
      .where(eq(emails.providerId, "m1"));
    await upsertPage(
      t.database.db,
      account,
      [message("m1", { subject: "Changed", isRead: true })],
      2,
      new Date(),
    );
    const after = await rowOf("m1");
    expect(after?.id).toBe(before?.id);
    expect(after?.subject).toBe("Changed");
    expect(after?.isRead).toBe(true);
    expect(after?.readAt).toBeInstanceOf(Date);
    expect(after?.aiAnalysis).toEqual({ category: "work", importance: 7 });
    expect(after?.createdAt.toISOString()).toBe(before?.createdAt.toISOString());
    expect(after?.syncGeneration).toBe(2);
    const count = await t.database.db.select().from(emails).where(eq(emails.accountId, account.id));
    expect(count).toHaveLength(1);

    // Still read: the first read time stays. Unread again: no read time.
    await upsertPage(
      t.database.db,
      account,
      [message("m1", { subject: "Changed", isRead: true })],
      3,
      new Date(),
    );
    expect((await rowOf("m1"))?.readAt?.toISOString()).toBe(after?.readAt?.toISOString());
    await upsertPage(t.database.db, account, [message("m1", { isRead: false })], 4, new Date());
    expect((await rowOf("m1"))?.readAt).toBeNull();
  });

  it("drops NUL characters PostgreSQL text cannot hold, instead of failing the page", async () => {
    await upsertPage(
      t.database.db,
      account,
      [message("m2", { bodyText: "before\0after", snippet: "a\0b", bodyHtml: "<p>x\0y</p>" })],
      1,
      new Date(),
    );
    const row = await rowOf("m2");
    expect(row?.bodyText).toBe("beforeafter");
    expect(row?.snippet).toBe("ab");
    expect(row?.bodyHtml).toBe("<p>xy</p>");
  });

  it("takes the last version of a message listed twice in one page", async () => {
    const stored = await upsertPage(
      t.database.db,
      account,
      [message("m3", { subject: "first" }), message("m3", { subject: "second" })],
      1,
      new Date(),
    );
    expect(stored).toBe(1);
    expect((await rowOf("m3"))?.subject).toBe("second");
  });

  it("leaves a row the user changed after the page was fetched, but marks it seen by the pass", async () => {
    await upsertPage(t.database.db, account, [message("m5")], 1, new Date());
    const fetchedAt = new Date();
    await new Promise((r) => setTimeout(r, 5));
    // The user marks it read here (what email-actions does) while the page is on its way.
    await t.database.db
      .update(emails)
      .set({ isRead: true, localChangeAt: new Date() })
      .where(eq(emails.providerId, "m5"));
    const stale = message("m5", { subject: "stale", isRead: false });
    await upsertPage(t.database.db, account, [stale, message("m6")], 7, fetchedAt);
    const kept = await rowOf("m5");
    expect(kept?.isRead).toBe(true);
    expect(kept?.subject).toBe("Subject m5");
    expect(kept?.syncGeneration).toBe(7);
    expect((await rowOf("m6"))?.syncGeneration).toBe(7);

    // Fetched after the user's change: the provider's state wins again.
    await upsertPage(
      t.database.db,
      account,
      [message("m5", { isRead: false, subject: "fresh" })],
      8,
      new Date(),
    );
    const fresh = await rowOf("m5");
    expect(fresh?.isRead).toBe(false);
    expect(fresh?.subject).toBe("fresh");
  });

  it("stores a row another writer inserted meanwhile through the upsert, inside the same transaction", async () => {
    await upsertPage(t.database.db, account, [message("m7", { subject: "sent copy" })], 1, new Date());
    const late = toEmailRow(account, message("m7", { subject: "from the sync", isRead: true }), {
      generation: 9,
      aiAnalysis: undefined,
      now: new Date(),
    });
    const brandNew = toEmailRow(account, message("m8"), {
      generation: 9,
      aiAnalysis: undefined,
      now: new Date(),
    });
    await t.database.db.transaction(async (tx) => {
      // The page thought m7 was new: the plain insert meets it, and the upsert takes over.
      expect(await insertFresh(tx, [late, brandNew], { upsert: true, fetchedAt: new Date() })).toBe(2);
      // The transaction is still usable after the failed insert (it was undone to a savepoint).
      await tx.update(emails).set({ snippet: "after" }).where(eq(emails.providerId, "m8"));
    });
    const m7 = await rowOf("m7");
    expect(m7?.subject).toBe("from the sync");
    expect(m7?.syncGeneration).toBe(9);
    expect((await rowOf("m8"))?.snippet).toBe("after");
    const copies = await t.database.db.select().from(emails).where(eq(emails.providerId, "m7"));
    expect(copies).toHaveLength(1);
  });

  it("is searchable through the generated search vector", async () => {
    await upsertPage(
      t.database.db,
      account,
      [message("m4", { subject: "Quarterly zeppelin report" })],
      1,
      new Date(),
    );
    const r = await t.database.executeSql(
      "select provider_id from emails where search @@ to_tsquery('simple', 'zeppelin')",
    );
    expect(r.rows).toEqual([{ provider_id: "m4" }]);
  });
});
