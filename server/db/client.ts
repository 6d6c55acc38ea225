import { mkdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import pg from "pg";
import type { Config } from "../config.ts";
import { lockDataDir } from "./data-dir-lock.ts";
import { PgliteThread } from "./pglite-thread.ts";
import * as schema from "./schema.ts";

export type Schema = typeof schema;
/** The query builder both backends share; services depend on this, never on a driver. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: Config["database"]["kind"];
  /** Raw SQL for libraries that bring their own queries (pg-boss). Multi-statement text is allowed without values. */
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[]; rowCount: number }>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");
// Any constant works; it only has to be the same in every process that migrates this database.
const MIGRATION_LOCK_ID = 727_001;

/** Opens the configured database and applies committed migrations. */
export async function openDatabase(config: Pick<Config, "database">): Promise<Database> {
  if (config.database.kind === "postgres") return openPostgres(config.database.url);
  return openPglite(config.database.dir);
}

async function openPostgres(url: string): Promise<Database> {
  return openPool(new pg.Pool({ connectionString: url, max: 10 }), "postgres", async () => {});
}

/**
 * PGlite runs in a worker thread (pglite-thread.ts) and is reached with node-postgres like a real
 * server, over one connection: PGlite is a single session, so the pool's queue orders the
 * statements and a transaction keeps the connection to itself.
 */
async function openPglite(dir: string): Promise<Database> {
  const dataDir = dir === ":memory:" ? undefined : dir;
  let unlock = async () => {};
  if (dataDir) {
    await mkdir(dataDir, { recursive: true });
    unlock = await lockDataDir(dataDir);
  }
  let thread: PgliteThread;
  try {
    thread = await PgliteThread.start(dataDir);
  } catch (err) {
    await unlock();
    throw err;
  }
  const pool = new pg.Pool({
    max: 1,
    idleTimeoutMillis: 0,
    user: "postgres",
    database: "postgres",
    stream: thread.stream,
  });
  return openPool(pool, "pglite", async () => {
    await thread.close();
    await unlock();
  });
}

async function openPool(
  pool: pg.Pool,
  kind: Database["kind"],
  afterClose: () => Promise<void>,
): Promise<Database> {
  // An idle client whose server connection dies (restart, failover, admin kill) emits 'error' on
  // the pool; unhandled, that event would crash the process. The pool replaces the client itself.
  pool.on("error", (err) => {
    console.warn(`PostgreSQL idle connection lost: ${err.message}`);
  });
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
    async close() {
      await pool.end();
      await afterClose();
    },
  };
}
