import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "../test/databases.ts";
import { openDatabase } from "./client.ts";
import { PGLITE_SETTINGS } from "./pglite-settings.ts";
import { PgliteThread } from "./pglite-thread.ts";
import { splitMessages } from "./pglite-wire.ts";

function typed(type: string, payload: number[]): number[] {
  const length = 4 + payload.length;
  return [
    type.charCodeAt(0),
    length >>> 24,
    (length >>> 16) & 255,
    (length >>> 8) & 255,
    length & 255,
    ...payload,
  ];
}

describe("splitMessages", () => {
  const startup = [0, 0, 0, 9, 0, 3, 0, 0, 0];
  const query = typed("Q", [115, 0]);
  const sync = typed("S", []);

  it("reads the startup message, then typed messages", () => {
    const { messages, rest } = splitMessages(
      undefined,
      Uint8Array.from([...startup, ...query, ...sync]),
      true,
    );
    expect(messages.map((m) => [...m])).toEqual([startup, query, sync]);
    expect(rest.length).toBe(0);
  });

  it("keeps a partial message until the rest arrives, byte by byte", () => {
    const stream = [...query, ...sync];
    let carried: Uint8Array | undefined;
    const seen: number[][] = [];
    for (const byte of stream) {
      const out = splitMessages(carried, Uint8Array.of(byte), false);
      carried = out.rest;
      seen.push(...out.messages.map((m) => [...m]));
    }
    expect(seen).toEqual([query, sync]);
    expect(carried?.length).toBe(0);
  });

  it("does not read a typed message as a startup message once the connection has started", () => {
    // Bytes 4-7 of this Query spell protocol 3.0; only the first message may be a startup.
    const tricky = typed("Q", [0, 3, 0, 0, 0]);
    const { messages } = splitMessages(undefined, Uint8Array.from(tricky), false);
    expect(messages.map((m) => [...m])).toEqual([tricky]);
  });
});

describe("PGlite in a worker thread", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase("pglite");
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("runs with the embedded settings, not PostgreSQL's server defaults (decision 0080)", async () => {
    for (const [name, value] of Object.entries(PGLITE_SETTINGS)) {
      const r = await t.database.executeSql(`select current_setting('${name}') as value`);
      expect({ name, value: (r.rows[0] as { value: string }).value }).toEqual({ name, value });
    }
  });

  it("answers many concurrent statements over the database's pool, each with its own result", async () => {
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => t.database.executeSql("select $1::int * 2 as n", [i])),
    );
    expect(results.map((r) => r.rows[0])).toEqual(Array.from({ length: 40 }, (_, i) => ({ n: i * 2 })));
  });

  it("carries results larger than one message chunk", async () => {
    const r = await t.database.executeSql("select repeat('x', 3000000) as big, generate_series(1, 3) as i");
    expect(r.rows).toHaveLength(3);
    expect((r.rows[0] as { big: string }).big.length).toBe(3_000_000);
  });

  it("keeps working after a statement fails", async () => {
    await expect(t.database.executeSql("select * from no_such_table where id = $1", [1])).rejects.toThrow(
      /no_such_table/,
    );
    await expect(t.database.db.execute(sql`select 1 as one`)).resolves.toBeDefined();
  });

  it("rolls back what a connection that died mid-transaction left open", async () => {
    await t.database.executeSql("create table if not exists t_orphan (n int)");
    // A second thread-backed pool on the same worker is not possible from here, so use the
    // database's own pool: take its connection, start a transaction, and kill the connection.
    const pool = (t.database.db as unknown as { $client: pg.Pool }).$client;
    const client = await pool.connect();
    await client.query("begin");
    await client.query("insert into t_orphan values (1)");
    await client.query({ name: "orphan_statement", text: "select 1" });
    client.release(new Error("connection killed by the test"));
    const rows = await t.database.executeSql("select count(*)::int as n from t_orphan");
    expect(rows.rows).toEqual([{ n: 0 }]);
    // The next connection may prepare the same statement name again.
    const again = await pool.query({ name: "orphan_statement", text: "select 2 as two" });
    expect(again.rows).toEqual([{ two: 2 }]);
  });
});

describe("several connections over PGlite's one session (decision 0088)", () => {
  let thread: PgliteThread;
  let pool: pg.Pool;
  beforeAll(async () => {
    thread = await PgliteThread.start(undefined);
    pool = new pg.Pool({ max: 4, stream: thread.stream, user: "postgres", database: "postgres" });
    pool.on("error", () => undefined);
    await pool.query("create table shared (n int)");
  });
  afterAll(async () => {
    await pool?.end().catch(() => undefined);
    await thread?.close();
  });

  it("gives a connection in a transaction the session: others wait, then see only what it committed", async () => {
    await pool.query("delete from shared");
    const a = await pool.connect();
    try {
      await a.query("begin");
      await a.query("insert into shared values (1)");
      const order: string[] = [];
      // Another connection's statements, sent while A's transaction is open.
      const other = pool.query("select count(*)::int as n from shared").then((r) => {
        order.push("other");
        return r.rows[0] as { n: number };
      });
      const otherInsert = pool.query("insert into shared values (2)").then(() => order.push("other insert"));
      await new Promise((r) => setTimeout(r, 100));
      expect(order).toEqual([]);
      // A's own statements still run, and see neither of the others'.
      expect((await a.query("select array_agg(n order by n) as ns from shared")).rows[0]).toEqual({
        ns: [1],
      });
      await a.query("commit");
      order.push("commit");
      expect(await other).toEqual({ n: 1 });
      await otherInsert;
      expect(order[0]).toBe("commit");
    } finally {
      a.release();
    }
    expect((await pool.query("select array_agg(n order by n) as ns from shared")).rows[0]).toEqual({
      ns: [1, 2],
    });
  });

  it("keeps the session with a connection whose transaction failed, until it rolls back", async () => {
    await pool.query("delete from shared");
    const a = await pool.connect();
    try {
      await a.query("begin");
      await a.query("insert into shared values (5)");
      await expect(a.query("select * from no_such_table")).rejects.toThrow(/no_such_table/);
      let done = false;
      const other = pool.query("select count(*)::int as n from shared").then((r) => {
        done = true;
        return r.rows[0];
      });
      await new Promise((r) => setTimeout(r, 100));
      expect(done).toBe(false);
      await a.query("rollback");
      expect(await other).toEqual({ n: 0 });
    } finally {
      a.release();
    }
  });

  it("prepares the same statement name on every connection, each with its own", async () => {
    const clients = await Promise.all(Array.from({ length: 4 }, () => pool.connect()));
    try {
      const answers = await Promise.all(
        clients.flatMap((c, i) =>
          [0, 1].map((k) =>
            c.query({ name: "same_name", text: "select $1::int as n", values: [i * 10 + k] }),
          ),
        ),
      );
      expect(answers.map((r) => r.rows[0])).toEqual(
        clients.flatMap((_, i) => [0, 1].map((k) => ({ n: i * 10 + k }))),
      );
    } finally {
      for (const c of clients) c.release();
    }
  });

  it("rolls back a closed connection's transaction and frees the session for the others", async () => {
    await pool.query("delete from shared");
    const a = await pool.connect();
    await a.query("begin");
    await a.query("insert into shared values (9)");
    await a.query({ name: "left_behind", text: "select 1 as one" });
    const waiting = pool.query("select count(*)::int as n from shared");
    a.release(new Error("connection killed by the test"));
    expect((await waiting).rows).toEqual([{ n: 0 }]);
    const left = await pool.query(
      "select count(*)::int as n from pg_prepared_statements where name like '%left_behind'",
    );
    expect(left.rows).toEqual([{ n: 0 }]);
  });

  it("answers many concurrent statements on four connections, each with its own result", async () => {
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        pool.query(
          i % 2
            ? { name: "double", text: "select $1::int * 2 as n", values: [i] }
            : { text: "select $1::int * 2 as n", values: [i] },
        ),
      ),
    );
    expect(results.map((r) => r.rows[0])).toEqual(Array.from({ length: 200 }, (_, i) => ({ n: i * 2 })));
  });
});

describe("starting the embedded database thread", () => {
  it("fails with a clear error when the data folder is a file", async () => {
    const file = path.join(os.tmpdir(), `mailwise-not-a-dir-${process.pid}-${Date.now()}`);
    await writeFile(file, "not a directory");
    await expect(openDatabase({ database: { kind: "pglite", dir: file } })).rejects.toThrow(/EEXIST|ENOTDIR/);
  });

  it("reports PGlite's own start failure and frees the folder for the next try", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "mailwise-broken-"));
    try {
      // A data folder from a PostgreSQL this PGlite cannot read.
      await writeFile(path.join(dir, "PG_VERSION"), "9\n");
      await expect(openDatabase({ database: { kind: "pglite", dir } })).rejects.toThrow();
      await expect(openDatabase({ database: { kind: "pglite", dir } })).rejects.not.toThrow(/already open/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("fails queries at once, with the reason, after the thread stopped on its own", async () => {
    const thread = await PgliteThread.start(undefined);
    const pool = new pg.Pool({ max: 1, stream: thread.stream, user: "postgres", database: "postgres" });
    pool.on("error", () => undefined);
    try {
      expect((await pool.query("select 1 as one")).rows).toEqual([{ one: 1 }]);
      await (thread as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
      await expect(pool.query("select 1")).rejects.toThrow();
      await expect(pool.query("select 1")).rejects.toThrow(/embedded database thread stopped/);
    } finally {
      await pool.end().catch(() => undefined);
    }
  });

  it("closes cleanly and can start again on the same folder", async () => {
    const t = await openTestDatabase("pglite");
    try {
      await t.database.executeSql("create table kept (n int); insert into kept values (7);");
      await t.database.close();
      const thread = await PgliteThread.start(t.config.kind === "pglite" ? t.config.dir : undefined);
      const pool = new pg.Pool({ max: 1, stream: thread.stream, user: "postgres", database: "postgres" });
      try {
        expect((await pool.query("select n from kept")).rows).toEqual([{ n: 7 }]);
      } finally {
        await pool.end();
        await thread.close();
      }
      t.database = await openDatabase({ database: t.config });
    } finally {
      await t.destroy();
    }
  });
});
