import type { Db } from "../../db/client.ts";
import { isStorageEpisodeError } from "../../db/storage-errors.ts";
import type { Clock } from "../../lib/clock.ts";
import { createUploadStore } from "./upload-store.ts";

/** How often a worker looks for expired uploads; an upload lives 24 h, so a few minutes late is fine. */
const SWEEP_EVERY_MS = 10 * 60_000;

/**
 * The worker role's upload sweep (issue 36): expired uploads and files no row knows are deleted.
 * Each step is idempotent (a DELETE ... RETURNING, then unlinks that tolerate a missing file),
 * so two workers sweeping at once delete each file once and report nothing twice.
 */
export function startUploadSweep(deps: {
  db: Db;
  clock: Clock;
  dir: string;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}): () => void {
  const store = createUploadStore(deps);
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      const { expired, orphans } = await store.sweep();
      if (expired + orphans > 0) deps.log.info({ expired, orphans }, "uploads swept");
    } catch (err) {
      if (isStorageEpisodeError(err)) return;
      deps.log.warn({ reason: err instanceof Error ? err.message : "unknown" }, "upload sweep failed");
    } finally {
      running = false;
    }
  };
  const first = setTimeout(() => void run(), 5_000);
  const timer = setInterval(() => void run(), SWEEP_EVERY_MS);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
