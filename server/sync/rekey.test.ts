import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emails } from "../db/schema.ts";
import { BACKENDS, openTestDatabase, type TestDatabase } from "../test/databases.ts";
import { createAccount, createEmail, createUser } from "../test/factories.ts";
import { rekeyIds } from "./rekey.ts";
import { removeByProviderIds } from "./upsert.ts";

describe.each(BACKENDS)("re-keying and removal around Graph moves on %s", (kind) => {
  let t: TestDatabase;
  let account: { id: string; userId: string };
  const rowsOf = (providerId: string) =>
    t.database.db.select().from(emails).where(eq(emails.providerId, providerId));

  beforeAll(async () => {
    t = await openTestDatabase(kind);
    const user = await createUser(t.database.db);
    account = await createAccount(t.database.db, user.id, { provider: "outlook" });
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("a row re-keyed onto an id another row holds keeps its uuid and analysis; the copy goes", async () => {
    const db = t.database.db;
    const analysed = await createEmail(db, account, {
      providerId: "old-a",
      internetMessageId: "<a@example.com>",
      aiAnalysis: { category: "work", importance: 8 },
      isStarred: true,
    });
    // Stored by a sync that met the moved message before we knew its new id.
    await createEmail(db, account, { providerId: "new-a", internetMessageId: "<a@example.com>" });
    await db.transaction((tx) => rekeyIds(tx, account.id, new Map([["old-a", "new-a"]])));
    expect(await rowsOf("old-a")).toHaveLength(0);
    const [kept, ...more] = await rowsOf("new-a");
    expect(more).toHaveLength(0);
    expect(kept).toMatchObject({
      id: analysed.id,
      isStarred: true,
      aiAnalysis: { category: "work", importance: 8 },
    });
  });

  it("a re-key whose old row is gone leaves the row under the new id alone", async () => {
    const db = t.database.db;
    const only = await createEmail(db, account, { providerId: "new-b" });
    await db.transaction((tx) => rekeyIds(tx, account.id, new Map([["old-b", "new-b"]])));
    expect((await rowsOf("new-b")).map((r) => r.id)).toEqual([only.id]);
  });

  it("sync's removal leaves rows whose write-back awaits settling to the write settler", async () => {
    const db = t.database.db;
    const pending = await createEmail(db, account, { providerId: "gone-p", writePendingAt: new Date() });
    await createEmail(db, account, { providerId: "gone-q" });
    const removed = await db.transaction((tx) => removeByProviderIds(tx, account.id, ["gone-p", "gone-q"]));
    expect(removed).toBe(1);
    expect((await rowsOf("gone-p")).map((r) => r.id)).toEqual([pending.id]);
    expect(await rowsOf("gone-q")).toHaveLength(0);
  });
});
