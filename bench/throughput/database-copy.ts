/**
 * A copy of a bench database, made while no server has it open: the synced mailbox is built once
 * and each checkout gets its own copy (the newer code migrates its copy forward as it opens it).
 * PGlite: the data folder copied; PostgreSQL: CREATE DATABASE ... TEMPLATE, a file-level copy, and
 * the data folder beside it (generated keys, uploads) copied too.
 */
import { randomBytes } from "node:crypto";
import { cp, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { testPostgresAdminUrl } from "../../server/test/postgres.ts";
import type { BenchDatabase } from "../mail/bench-kit.ts";

async function adminQuery(sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: testPostgresAdminUrl() });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

const tempDataDir = () => mkdtemp(path.join(os.tmpdir(), "mailwise-bench-data-"));

/**
 * Gives a PostgreSQL bench database a DATA_DIR of its own: without one the server writes its
 * generated keys into ./data of the checkout it runs in (another worktree, for the baseline).
 */
export async function withOwnDataDir(database: BenchDatabase): Promise<BenchDatabase> {
  if (database.env.DATA_DIR) return database;
  const dir = await tempDataDir();
  return {
    ...database,
    env: { ...database.env, DATA_DIR: dir },
    async destroy() {
      await database.destroy();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Copies `source` (its server stopped) into a new database of the same kind. */
export async function copyBenchDatabase(source: BenchDatabase): Promise<BenchDatabase> {
  const sourceDir = source.env.DATA_DIR;
  if (!sourceDir) throw new Error("a bench database without DATA_DIR (see withOwnDataDir)");
  const dir = await tempDataDir();
  await cp(sourceDir, dir, { recursive: true });
  const removeDir = () => rm(dir, { recursive: true, force: true });
  if (source.config.kind === "pglite") {
    return {
      env: { DATA_DIR: dir },
      config: { kind: "pglite", dir: path.join(dir, "pglite") },
      destroy: removeDir,
    };
  }
  const from = new URL(source.config.url);
  const sourceName = from.pathname.slice(1);
  const name = `${sourceName}_copy_${randomBytes(3).toString("hex")}`;
  // TEMPLATE refuses while anyone is connected to the source: the caller stopped its server.
  await adminQuery(`create database ${name} template ${sourceName}`);
  const url = new URL(from);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString(), DATA_DIR: dir },
    config: { kind: "postgres", url: url.toString() },
    async destroy() {
      await adminQuery(`drop database if exists ${name} with (force)`);
      await removeDir();
    },
  };
}
