import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmailListQuery } from "../../contract/mail.ts";
import { BACKENDS, openTestDatabase, type TestDatabase } from "../test/databases.ts";
import { createAccount, createUser } from "../test/factories.ts";
import { createEmailLister, statementLimit } from "./email-lister.ts";

describe("statementLimit", () => {
  it("rounds a page and its next row up to one of four statement sizes", () => {
    expect([1, 25, 26, 50, 51, 100, 101, 200].map(statementLimit)).toEqual([
      26, 26, 51, 51, 101, 101, 201, 201,
    ]);
  });
});

const MAILBOX = 8000;

describe.each(BACKENDS)("list page statements on %s", (kind) => {
  let database: TestDatabase;
  let userId: string;
  let accountId: string;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    const db = database.database.db;
    const user = await createUser(db);
    const account = await createAccount(db, user.id);
    // Big enough that a LIMIT costed at a tenth of the mailbox loses to the custom plans (the
    // bug this pins); pairs of rows share a second, so pages also split ties on id.
    await database.database.executeSql(
      `insert into emails (user_id, account_id, provider_id, from_address, subject, received_at, bucket)
       select $1, $2, 'plan-' || i, 's' || i || '@example.com', 'Subject ' || i,
         timestamptz '2026-11-01' + ((i / 2) || ' seconds')::interval,
         case when i % 50 = 0 then 'work' else 'newsletters' end
       from generate_series(1, ${MAILBOX}) i`,
      [user.id, account.id],
    );
    await database.database.executeSql("analyze emails");
    userId = user.id;
    accountId = account.id;
  });
  afterAll(async () => {
    await database?.destroy();
  });

  it("settle on one generic plan instead of planning every call", async () => {
    // Calls run one after another, so every statement lives on the one connection asked below.
    const lister = createEmailLister(database.database.db);
    const first = await lister.list(userId, { limit: 50 });
    const cursor = first.nextCursor ?? undefined;
    const queries: EmailListQuery[] = [
      { limit: 50 },
      { limit: 50, bucket: "work", cursor },
      { limit: 30, accountId, unread: "true" },
    ];
    for (let i = 0; i < 8; i++) for (const q of queries) await lister.list(userId, q);
    // On PGlite every connection's statement names carry its prefix (c<id>_, decision 0088).
    const { rows } = await database.database.executeSql(
      "select name, generic_plans, custom_plans from pg_prepared_statements where name like '%email_page%' order by name",
    );
    // Each first page also reads the inbox's head (resurfaced mail, issue 37): a statement of its own.
    const heads = queries.filter((q) => !q.cursor).length;
    expect(rows).toHaveLength(queries.length + heads);
    for (const row of rows as Array<{ name: string; generic_plans: string; custom_plans: string }>) {
      // PostgreSQL tries five custom plans before it compares them with the generic one.
      expect(Number(row.generic_plans), row.name).toBeGreaterThanOrEqual(3);
      expect(Number(row.custom_plans), row.name).toBeLessThanOrEqual(5);
    }
  });

  it("pages of any size read the same mail as one long read, each row once", async () => {
    const lister = createEmailLister(database.database.db);
    const all = (await lister.list(userId, { limit: 200, bucket: "work" })).emails.map((e) => e.id);
    expect(all).toHaveLength(MAILBOX / 50);
    for (const limit of [7, 26, 30, 51]) {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await lister.list(userId, { limit, bucket: "work", ...(cursor ? { cursor } : {}) });
        expect(page.emails.length).toBeLessThanOrEqual(limit);
        seen.push(...page.emails.map((e) => e.id));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      expect(seen, `limit ${limit}`).toEqual(all);
    }
  });
});
