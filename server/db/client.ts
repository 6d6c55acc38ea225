import { mkdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import type { Config } from "../config.ts";
import { lockDataDir } from "./data-dir-lock.ts";
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
  const pool = new pg.Pool({ connectionString: url, max: 10 });
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
    kind: "postgres",
    async executeSql(text, values) {
      const r = await pool.query(text, values);
      return { rows: r.rows, rowCount: r.rowCount ?? 0 };
    },
    async ping() {
      await db.execute(sql`select 1`);
    },
    close: () => pool.end(),
  };
}

async function openPglite(dir: string): Promise<Database> {
  const dataDir = dir === ":memory:" ? undefined : dir;
  let unlock = async () => {};
  if (dataDir) {
    await mkdir(dataDir, { recursive: true });
    unlock = await lockDataDir(dataDir);
  }
  let client: PGlite;
  try {
    client = await PGlite.create(dataDir ? { dataDir } : {});
  } catch (err) {
    await unlock();
    throw err;
  }
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder });
  return {
    db,
    kind: "pglite",
    async executeSql(text, values) {
      // PGlite's prepared query refuses several statements at once; exec handles those when nothing is bound.
      if (!values || values.length === 0) {
        const results = await client.exec(text);
        const last = results.at(-1);
        return { rows: last?.rows ?? [], rowCount: last?.affectedRows ?? 0 };
      }
      const r = await client.query(text, values);
      return { rows: r.rows, rowCount: r.affectedRows ?? 0 };
    },
    async ping() {
      await client.query("select 1");
    },
    async close() {
      await client.close();
      await unlock();
    },
  };
}
