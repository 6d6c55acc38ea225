import { readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BACKENDS, openTestDatabase, type TestDatabase } from "../test/databases.ts";
import { createAccount, createEmail, createUser } from "../test/factories.ts";
import { emails } from "./schema.ts";

/** Migration 0017 cleans mail stored before sync dropped bidi controls from display text. */
const MIGRATION = readFileSync(
  new URL("./migrations/0017_neutralise_stored_bidi.sql", import.meta.url),
  "utf8",
)
  .split("--> statement-breakpoint")
  .map((statement) => statement.trim())
  .filter(Boolean);

describe.each(BACKENDS)("stored bidi controls on %s", (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("removes them from subject, sender name and attachment names, and leaves the rest", async () => {
    const db = t.database.db;
    const user = await createUser(db);
    const account = await createAccount(db, user.id);
    const old = await createEmail(db, account, {
      subject: "Invoice \u202Efdp.exe attached",
      fromName: "Billing\u2066 Team\u2069",
      snippet: "keeps \u202E in the snippet",
      attachments: [
        { filename: "invoice\u202Efdp.exe", mimeType: "application/pdf", size: 10 },
        { filename: "plain.txt", mimeType: "text/plain", size: 3 },
      ],
    });
    const clean = await createEmail(db, account, { subject: "Nothing odd", fromName: "Ann" });
    for (const statement of MIGRATION) await t.database.executeSql(statement);

    const [after] = await db.select().from(emails).where(eq(emails.id, old.id));
    expect(after?.subject).toBe("Invoice fdp.exe attached");
    expect(after?.fromName).toBe("Billing Team");
    expect(after?.snippet).toBe("keeps \u202E in the snippet");
    expect(after?.attachments).toEqual([
      { filename: "invoicefdp.exe", mimeType: "application/pdf", size: 10 },
      { filename: "plain.txt", mimeType: "text/plain", size: 3 },
    ]);
    const [untouched] = await db.select().from(emails).where(eq(emails.id, clean.id));
    expect(untouched).toMatchObject({ subject: "Nothing odd", fromName: "Ann" });
  });
});
