import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Config } from "../config.ts";
import { type Database, openDatabase } from "../db/client.ts";
import { createThrowawayDatabase } from "./postgres.ts";

export type BackendKind = Config["database"]["kind"];
/** Database tests run once per backend: the embedded default and a real PostgreSQL server. */
export const BACKENDS: readonly BackendKind[] = ["pglite", "postgres"];

export interface TestDatabase {
  /** Replaceable, so a test can close and reopen the same data. */
  database: Database;
  config: Config["database"];
  /** Closes the connection and deletes the data. */
  destroy(): Promise<void>;
}

export async function openTestDatabase(kind: BackendKind): Promise<TestDatabase> {
  if (kind === "postgres") {
    const throwaway = await createThrowawayDatabase();
    const config = { kind: "postgres", url: throwaway.url } as const;
    const t: TestDatabase = {
      database: await openDatabase({ database: config }),
      config,
      async destroy() {
        await t.database.close().catch(() => undefined);
        await throwaway.drop();
      },
    };
    return t;
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), "mailwise-pglite-"));
  const config = { kind: "pglite", dir } as const;
  const t: TestDatabase = {
    database: await openDatabase({ database: config }),
    config,
    async destroy() {
      await t.database.close().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
  return t;
}
