import { readFileSync } from "node:fs";
import { mkdir, statfs } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { is, sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { getTableConfig, type PgDatabase, type PgQueryResultHKT, PgTable } from "drizzle-orm/pg-core";
import pg from "pg";
import type { Config } from "../config.ts";
import { isConnectionError, redactUrl } from "./connection-errors.ts";
import { lockDataDir } from "./data-dir-lock.ts";
import { PgliteThread } from "./pglite-thread.ts";
import * as schema from "./schema.ts";
import { StorageFullError } from "./storage-errors.ts";
import {
  createStorageWatch,
  type StorageLog,
  type StorageStatus,
  type StorageWatch,
} from "./storage-watch.ts";

export type Schema = typeof schema;
/** The query builder both backends share; services depend on this, never on a driver. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: Config["database"]["kind"];
  /** Raw SQL for libraries that bring their own queries (pg-boss). Multi-statement text is allowed without values. */
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[]; rowCount: number }>;
  ping(): Promise<void>;
  /** Whether the schema is the one this code expects: the last committed migration applied, every table there. */
  schemaStatus(): Promise<SchemaStatus>;
  /** Whether the disk is full (an episode: decision 0053), and a way to hear when it ends. */
  storage: {
    status(): StorageStatus;
    onRecovered(listener: () => void): () => void;
  };
  close(): Promise<void>;
  /** PostgreSQL: the server's URL, for a connection of its own (the live inbox's LISTEN). */
  connectionUrl?: string;
}

export interface SchemaStatus {
  current: boolean;
  /** Tag of the last committed migration (what this code expects). */
  expected: string;
  /** Tag of the last migration the database records, if any. */
  applied: string | undefined;
  missingTables: string[];
}

export interface OpenOptions {
  /**
   * How long to keep trying while the database does not answer yet (PostgreSQL still starting,
   * another process still holding the embedded folder). 0: one attempt.
   */
  startTimeoutMs?: number;
  /** Told about each failed attempt before the next. */
  onRetry?: (message: string, delayMs: number) => void;
  /** Where a full disk's episode is logged (once when it starts, once when it ends). */
  log?: StorageLog;
}

const consoleStorageLog: StorageLog = {
  error: (obj, msg) => console.error(msg, obj),
  info: (obj, msg) => console.info(msg, obj),
};

/**
 * Free space the embedded database needs before it counts as writable again: two WAL segments
 * (16 MiB each), since reopening PGlite after a PANIC replays and checkpoints, and a disk with
 * only a few pages free would fill again with the next synced page (one episode after another).
 */
export const PGLITE_FREE_SPACE_MARGIN = 32 * 1024 * 1024;

async function freeBytes(dir: string): Promise<number> {
  const s = await statfs(dir);
  return s.bavail * s.bsize;
}

/**
 * A small real write, rolled back: a new table's first page must be allocated on disk and its
 * catalog rows written to the WAL, which is what fails while the disk is full. On a connection
 * of its own, which is dropped if even the rollback fails.
 */
async function probeWrite(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query("begin");
    await client.query("create table mailwise_storage_probe (n int)");
    await client.query("insert into mailwise_storage_probe values (1)");
  } finally {
    await client.query("rollback").catch((err: Error) => {
      broken = err;
    });
    client.release(broken);
  }
}

/**
 * Tells the storage watch about every failed statement of the pool's clients, whichever way it
 * was called (node-postgres's pool passes a callback, drizzle awaits a promise).
 */
function watchQueries(client: pg.PoolClient, storage: StorageWatch): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const watched = (...args: unknown[]): unknown => {
    const last = args[args.length - 1];
    if (typeof last === "function") {
      const callback = last as (err: unknown, result: unknown) => void;
      args[args.length - 1] = (err: unknown, result: unknown) => {
        if (err) storage.report(err);
        callback(err, result);
      };
      return query(...args);
    }
    const result = query(...args);
    // A branch of its own: the caller still gets (and handles) the original rejection.
    if (result instanceof Promise) result.then(undefined, (err: unknown) => storage.report(err));
    return result;
  };
  client.query = watched as typeof client.query;
}

/** The database could not be opened: the message names the variable, what was tried and why. */
export class DatabaseStartError extends Error {
  override name = "DatabaseStartError";
}

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");
// Any constant works; it only has to be the same in every process that migrates this database.
const MIGRATION_LOCK_ID = 727_001;

const journal = JSON.parse(readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8")) as {
  entries: Array<{ when: number; tag: string }>;
};
const lastMigration = journal.entries[journal.entries.length - 1];
/** Every table of the schema, quoted for to_regclass. */
const schemaTables = (Object.values(schema) as unknown[])
  .filter((t): t is PgTable => is(t, PgTable))
  .map((t) => {
    const c = getTableConfig(t);
    return `"${c.schema ?? "public"}"."${c.name}"`;
  });

/** Opens the configured database and applies committed migrations. */
export async function openDatabase(
  config: Pick<Config, "database">,
  options: OpenOptions = {},
): Promise<Database> {
  if (config.database.kind === "postgres") return openPostgres(config.database.url, options);
  return openPglite(config.database.dir, options);
}

/**
 * Runs `attempt` until it succeeds or the start-up time is spent, backing off from 250 ms to 5 s;
 * the final error says what was tried (`what`), how often, and why it failed.
 */
async function retryStart<T>(
  what: string,
  options: OpenOptions,
  retryable: (err: unknown) => boolean,
  attempt: () => Promise<T>,
): Promise<T> {
  const timeoutMs = options.startTimeoutMs ?? 0;
  const started = Date.now();
  let delayMs = 250;
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (err) {
      const reason = describeFailure(err);
      const elapsed = Date.now() - started;
      if (!retryable(err) || elapsed + delayMs > timeoutMs) {
        const spent = tries > 1 ? ` (tried ${tries} times over ${(elapsed / 1000).toFixed(1)} s)` : "";
        throw new DatabaseStartError(`${what}: ${reason}${spent}`, { cause: err });
      }
      options.onRetry?.(`${what}: ${reason}; trying again in ${delayMs} ms`, delayMs);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      delayMs = Math.min(5_000, delayMs * 2);
    }
  }
}

function describeFailure(err: unknown): string {
  const e = err as { message?: string; code?: string; errors?: Array<{ message?: string }> };
  // A refused connection to "localhost" is an AggregateError of one refusal per address.
  let message = e?.message || e?.errors?.map((x) => x.message).join("; ") || String(err);
  if (e?.code === "3D000") message += " (create it, or point DATABASE_URL at an existing database)";
  if (e?.code === "28P01" || e?.code === "28000") message += " (check the user and password in DATABASE_URL)";
  return message;
}

async function openPostgres(url: string, options: OpenOptions): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 10_000 });
  const target = (() => {
    const u = new URL(url);
    const database = decodeURIComponent(u.pathname.slice(1)) || "(the user's)";
    return `${u.hostname || "localhost"}:${u.port || 5432}, database ${database}`;
  })();
  const storage = createStorageWatch({
    log: options.log ?? consoleStorageLog,
    probe: () => probeWrite(pool),
  });
  try {
    // Missing databases and refused logins are retried too: a container may still be creating them.
    return await retryStart(
      `Could not open the PostgreSQL database of DATABASE_URL=${redactUrl(url)} (${target})`,
      options,
      () => true,
      async () => ({ ...(await openPool(pool, "postgres", async () => {}, storage)), connectionUrl: url }),
    );
  } catch (err) {
    storage.close();
    await pool.end().catch(() => undefined);
    throw err;
  }
}

/**
 * Connections to the embedded database. PGlite is one session; the worker runs the connections'
 * queries in whole batches and gives a connection in a transaction the session to itself
 * (pglite-sessions.ts, decision 0088). More than one lets the next queries wait in the database's
 * thread rather than in this one's pool: measured with the throughput bench.
 */
export const PGLITE_CONNECTIONS = 4;

/**
 * PGlite runs in a worker thread (pglite-thread.ts) and is reached with node-postgres like a real
 * server.
 */
async function openPglite(dir: string, options: OpenOptions): Promise<Database> {
  const dataDir = dir === ":memory:" ? undefined : dir;
  const what = `Could not open the embedded database of DATA_DIR (${dir})`;
  let unlock = async () => {};
  if (dataDir) {
    await retryStart(
      what,
      options,
      () => false,
      // Mail lives in here: owner only (main.ts also tightens what exists already).
      () => mkdir(dataDir, { recursive: true, mode: 0o700 }),
    );
    // Another process may be shutting down and still hold the folder.
    unlock = await retryStart(
      what,
      options,
      (err) => err instanceof Error && err.message.startsWith("Another Mailwise process"),
      () => lockDataDir(dataDir),
    );
  }
  let thread: PgliteThread;
  try {
    thread = await retryStart(
      what,
      options,
      () => false,
      () => PgliteThread.start(dataDir),
    );
  } catch (err) {
    await unlock();
    throw err;
  }
  const pool = new pg.Pool({
    max: PGLITE_CONNECTIONS,
    idleTimeoutMillis: 0,
    user: "postgres",
    database: "postgres",
    // Through the thread of the moment: a failed one is replaced once the disk has room again.
    stream: () => thread.stream(),
  });
  const enoughSpace = async () => {
    if (!dataDir) return;
    const free = await freeBytes(dataDir);
    if (free < PGLITE_FREE_SPACE_MARGIN)
      throw new StorageFullError(
        `${free} bytes free in DATA_DIR (${dir}), ${PGLITE_FREE_SPACE_MARGIN} needed`,
      );
  };
  const storage = createStorageWatch({
    log: options.log ?? consoleStorageLog,
    async probe() {
      await enoughSpace();
      if (thread.failed) {
        if (!dataDir) throw new Error("an in-memory embedded database cannot be reopened");
        // PGlite after a PANIC never answers again: a new thread reopens the folder (recovery
        // replays the WAL, so every committed page is there; the failed statement's is not).
        const next = await PgliteThread.start(dataDir);
        next.onFailure = onFailure;
        const old = thread;
        thread = next;
        await old.close();
      }
      await probeWrite(pool);
    },
  });
  function onFailure(err: Error): void {
    if (storage.report(err)) return;
    // A thread that stalled or aborted on a disk without room is a full disk too.
    enoughSpace().catch((why: unknown) => storage.report(why));
  }
  thread.onFailure = onFailure;
  return openPool(
    pool,
    "pglite",
    async () => {
      storage.close();
      await thread.close();
      await unlock();
    },
    storage,
  );
}

async function openPool(
  pool: pg.Pool,
  kind: Database["kind"],
  afterClose: () => Promise<void>,
  storage: StorageWatch,
): Promise<Database> {
  // An idle client whose server connection dies (restart, failover, admin kill) emits 'error' on
  // the pool; unhandled, that event would crash the process. The pool replaces the client itself.
  if (pool.listenerCount("error") === 0) {
    pool.on("error", (err) => {
      console.warn(`PostgreSQL idle connection lost: ${err.message}`);
    });
    // A client checked out of the pool (inside a transaction, between two statements) has no
    // pool listener: its 'error' would be unhandled and end the process. The statement in flight
    // fails with the error; the pool drops the broken client when it is released.
    pool.on("connect", (client) => {
      client.on("error", (err) => {
        console.warn(`PostgreSQL connection lost while in use: ${err.message}`);
      });
      watchQueries(client, storage);
    });
  }
  const db = drizzlePg(pool, { schema });
  // Several web and worker processes may start together; the advisory lock lets one migrate at a time.
  const client = await pool.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
    await migratePg(drizzlePg(client, { schema }), { migrationsFolder });
  } finally {
    await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]).catch(() => undefined);
    client.release();
  }
  return {
    db,
    kind,
    async executeSql(text, values) {
      const r = await pool.query(text, values);
      return { rows: r.rows, rowCount: r.rowCount ?? 0 };
    },
    async ping() {
      await db.execute(sql`select 1`);
    },
    async schemaStatus() {
      const expected = lastMigration?.tag ?? "";
      let applied: string | undefined;
      try {
        const r = await pool.query<{ created_at: string }>(
          "select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1",
        );
        const when = Number(r.rows[0]?.created_at);
        applied =
          journal.entries.find((e) => e.when === when)?.tag ?? (r.rows[0] ? `unknown (${when})` : undefined);
      } catch (err) {
        if (isConnectionError(err)) throw err;
        applied = undefined;
      }
      const missing = await pool.query<{ name: string }>(
        "select t.name from unnest($1::text[]) as t(name) where to_regclass(t.name) is null",
        [schemaTables],
      );
      const missingTables = missing.rows.map((r) => r.name);
      return {
        current: applied === expected && missingTables.length === 0,
        expected,
        applied,
        missingTables,
      };
    },
    storage: { status: () => storage.status(), onRecovered: (listener) => storage.onRecovered(listener) },
    async close() {
      storage.close();
      await pool.end();
      await afterClose();
    },
  };
}
