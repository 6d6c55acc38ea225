import { readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BACKENDS, openTestDatabase, type TestDatabase } from "../test/databases.ts";
import { openDatabase } from "./client.ts";
import { users } from "./schema.ts";

const journal = JSON.parse(
  readFileSync(new URL("./migrations/meta/_journal.json", import.meta.url), "utf8"),
) as { entries: unknown[] };

describe.each(BACKENDS)("database on %s", (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("applies the committed migrations and round-trips a row", async () => {
    const [row] = await t.database.db
      .insert(users)
      .values({ email: "ada@example.com", displayName: "Ada" })
      .returning();
    expect(row?.id).toMatch(/^[0-9a-f-]{36}$/);
    const found = await t.database.db.select().from(users).where(eq(users.email, "ada@example.com"));
    expect(found).toHaveLength(1);
    expect(found[0]?.displayName).toBe("Ada");
    expect(found[0]?.createdAt).toBeInstanceOf(Date);
  });

  it("runs multi-statement raw SQL and bound queries (the pg-boss adapter path)", async () => {
    await t.database.executeSql("create table t_raw (n int); insert into t_raw values (1), (2);");
    const r = await t.database.executeSql("select n from t_raw where n > $1", [1]);
    expect(r.rows).toEqual([{ n: 2 }]);
  });

  it("reopening keeps the data and migrating again is a no-op", async () => {
    // PGlite allows one open instance per folder, so close before reopening.
    await t.database.close();
    t.database = await openDatabase({ database: t.config });
    const rows = await t.database.db.select().from(users);
    expect(rows.map((r) => r.email)).toEqual(["ada@example.com"]);
    const applied = await t.database.executeSql(
      "select count(*)::int as n from drizzle.__drizzle_migrations",
    );
    expect(applied.rows).toEqual([{ n: journal.entries.length }]);
  });
});

describe("the embedded database folder", () => {
  it("refuses a second open while the first is in use, and opens again after close", async () => {
    const t = await openTestDatabase("pglite");
    try {
      await expect(openDatabase({ database: t.config })).rejects.toThrow(
        /already open|Another Mailwise process/,
      );
      await t.database.close();
      t.database = await openDatabase({ database: t.config });
      expect((await t.database.executeSql("select 1 as one")).rows).toEqual([{ one: 1 }]);
    } finally {
      await t.destroy();
    }
  });
});
