import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { SyncFixture } from "./sync-fixture.ts";
import { startWorker, stopWorker, type WorkerProcess } from "./worker-process.ts";

/** Worker processes of the real server on a PostgreSQL fixture's database, and a client to look in. */
export interface WorkerCluster {
  /** A direct connection to the fixture's database (due_actions, pgboss.job). */
  admin: pg.Client;
  /** Every worker started so far, killed ones included. */
  workers: WorkerProcess[];
  /** Starts one more worker (a restart, the end of a downtime) and waits until it runs. */
  start(name: string): Promise<WorkerProcess>;
  /** Stops every worker that still runs (the database stays, for more checks). */
  stopAll(): Promise<void>;
  /** Stops the workers, closes the client and removes their data folder; not the fixture. */
  close(): Promise<void>;
}

/**
 * `count` workers (`--role=worker`) sharing the fixture's PostgreSQL database, with the fixture's
 * settings plus `env`, started and ready. The fixture's own app should run as role "web" so
 * only these processes do the work.
 */
export async function startWorkerCluster(
  f: SyncFixture,
  opts: { count?: number; env?: Record<string, string> } = {},
): Promise<WorkerCluster> {
  if (f.database.config.kind !== "postgres") throw new Error("worker processes need PostgreSQL");
  const admin = new pg.Client({ connectionString: f.database.config.url });
  admin.on("error", () => undefined);
  await admin.connect();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "mailwise-workers-"));
  const env: NodeJS.ProcessEnv = {
    ...f.env,
    ...(process.env.PATH ? { PATH: process.env.PATH } : {}),
    ...(process.env.HOME ? { HOME: process.env.HOME } : {}),
    ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
    DATABASE_URL: f.database.config.url,
    DATA_DIR: dataDir,
    // The ready line is logged at info.
    LOG_LEVEL: "info",
    ...opts.env,
  };
  const workers: WorkerProcess[] = [];
  const stopAll = () => Promise.all(workers.map(stopWorker)).then(() => undefined);
  const cluster: WorkerCluster = {
    admin,
    workers,
    async start(name) {
      const w = startWorker(name, env);
      workers.push(w);
      await w.ready;
      return w;
    },
    stopAll,
    async close() {
      await stopAll();
      await admin.end().catch(() => undefined);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  try {
    await Promise.all(Array.from({ length: opts.count ?? 2 }, (_, i) => cluster.start(`worker-${i + 1}`)));
  } catch (err) {
    await cluster.close();
    throw err;
  }
  return cluster;
}
