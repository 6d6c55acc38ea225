import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BACKENDS, openTestDatabase, type TestDatabase } from "../test/databases.ts";
import { startTestServer, type TestServer } from "../test/server.ts";

const tags = (
  JSON.parse(readFileSync(new URL("../db/migrations/meta/_journal.json", import.meta.url), "utf8")) as {
    entries: Array<{ tag: string }>;
  }
).entries.map((e) => e.tag);
const [previous, last] = tags.slice(-2);

describe.each(BACKENDS)("/readyz on %s", (kind) => {
  let db: TestDatabase;
  let server: TestServer;
  beforeAll(async () => {
    db = await openTestDatabase(kind);
    server = await startTestServer(db.database);
  });
  afterAll(async () => {
    await server?.close();
    await db?.destroy();
  });

  const ready = async () => {
    const res = await fetch(`${server.url}/readyz`);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it("is ready at the last committed migration, and not when that migration is missing", async () => {
    const first = await ready();
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: "ready", database: kind, migration: last });

    const removed = await db.database.executeSql(
      "delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations) returning hash, created_at",
    );
    const row = removed.rows[0] as { hash: string; created_at: string };
    const behind = await ready();
    expect(behind.status).toBe(503);
    expect(behind.body).toEqual({
      error: {
        code: "service_unavailable",
        message: expect.stringContaining(`expected ${last}, found ${previous}`),
      },
    });
    await db.database.executeSql(
      "insert into drizzle.__drizzle_migrations (hash, created_at) values ($1, $2)",
      [row.hash, row.created_at],
    );
    expect((await ready()).status).toBe(200);
  });

  it("is not ready when a table is gone", async () => {
    await db.database.executeSql("drop table auth_tickets");
    const gone = await ready();
    expect(gone.status).toBe(503);
    expect((gone.body as { error: { message: string } }).error.message).toContain(
      'missing tables: "public"."auth_tickets"',
    );
  });
});
