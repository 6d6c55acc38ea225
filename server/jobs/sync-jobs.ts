import { z } from "zod";
import type { MailboxSyncer } from "../sync/mailbox-syncer.ts";
import type { JobQueue } from "./queue.ts";

/** Job names of the sync engine. */
export const SYNC_JOBS = {
  account: "sync.account",
  push: "sync.push",
  backfill: "sync.backfill",
  watchRenew: "sync.watch-renew",
} as const;

const reasonSchema = z.enum(["connected", "poll", "push", "manual", "retry", "action", "takeover"]);
export const syncAccountJobSchema = z.object({ accountId: z.uuid(), reason: reasonSchema });
export const accountJobSchema = z.object({ accountId: z.uuid() });

// Transient provider trouble backs off from 2 s up to 5 minutes; rate limits wait as asked.
const RETRIES = { maxAttempts: 8, baseDelayMs: 2_000, maxDelayMs: 5 * 60_000 };

/** Beyond the lease, what a sync job may take to wait for the lease and to start (seconds). */
export const SYNC_JOB_EXPIRY_MARGIN_SECONDS = 10;

/**
 * How long pg-boss lets a sync job stay active: a step that outlives its lease has lost the
 * account anyway, so the job of a killed process should not look active for pg-boss's default
 * 15 minutes.
 */
export function syncJobExpirySeconds(leaseSeconds: number): number {
  return leaseSeconds + SYNC_JOB_EXPIRY_MARGIN_SECONDS;
}

/** Registers the sync jobs on the queue; handlers only call the syncer (idempotent steps). */
export function defineSyncJobs(queue: JobQueue, syncer: MailboxSyncer, opts: { leaseSeconds: number }): void {
  const common = { ...RETRIES, expireInSeconds: syncJobExpirySeconds(opts.leaseSeconds) };
  queue.define({
    name: SYNC_JOBS.account,
    schema: syncAccountJobSchema,
    ...common,
    handler: async (data) => {
      await syncer.syncAccount(data.accountId, data.reason);
    },
  });
  queue.define({
    name: SYNC_JOBS.push,
    schema: accountJobSchema,
    ...common,
    handler: async (data) => {
      await syncer.syncAccount(data.accountId, "push");
    },
  });
  queue.define({
    name: SYNC_JOBS.backfill,
    schema: accountJobSchema,
    ...common,
    handler: (data) => syncer.backfill(data.accountId),
  });
  queue.define({
    name: SYNC_JOBS.watchRenew,
    schema: accountJobSchema,
    ...common,
    handler: (data) => syncer.renewWatch(data.accountId),
  });
}
