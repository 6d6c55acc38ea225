import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Config } from "../config.ts";
import { type Database, openDatabase } from "../db/client.ts";
import type { StorageLog } from "../db/storage-watch.ts";
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

export interface TestDatabaseOptions {
  /** The embedded database's folder goes under this one (default the system's temporary folder). */
  parent?: string;
  /** The PostgreSQL server to create the database on (default the run's). */
  postgresAdminUrl?: string;
  /** Where the database logs a full disk. */
  log?: StorageLog;
}

export async function openTestDatabase(
  kind: BackendKind,
  options: TestDatabaseOptions = {},
): Promise<TestDatabase> {
  const open = options.log ? { log: options.log } : {};
  if (kind === "postgres") {
    const throwaway = await createThrowawayDatabase(options.postgresAdminUrl);
    const config = { kind: "postgres", url: throwaway.url } as const;
    const t: TestDatabase = {
      database: await openDatabase({ database: config }, open),
      config,
      async destroy() {
        // A pool whose client was never released would wait for it forever: give it 15 s, say so,
        // and drop the database regardless (its connections are closed by the forced drop).
        let timer: NodeJS.Timeout | undefined;
        const gaveUp = await Promise.race([
          t.database
            .close()
            .catch(() => undefined)
            .then(() => false),
          new Promise<boolean>((resolve) => {
            timer = setTimeout(() => resolve(true), 15_000);
          }),
        ]);
        clearTimeout(timer);
        if (gaveUp)
          console.warn(
            `[test] the PostgreSQL pool of ${new URL(throwaway.url).pathname} did not close in 15 s`,
          );
        await throwaway.drop();
      },
    };
    return t;
  }
  const dir = await mkdtemp(path.join(options.parent ?? os.tmpdir(), "mailwise-pglite-"));
  const config = { kind: "pglite", dir } as const;
  const t: TestDatabase = {
    database: await openDatabase({ database: config }, open),
    config,
    async destroy() {
      await t.database.close().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
  return t;
}
