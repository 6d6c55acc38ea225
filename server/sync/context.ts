import type { Db } from "../db/client.ts";
import type { Clock } from "../lib/clock.ts";
import type { SyncLogger } from "./types.ts";

/** What every sync step shares. */
export interface SyncContext {
  db: Db;
  clock: Clock;
  log: SyncLogger;
  /** The whole inbox plus mail received in the last N days (SYNC_DEPTH_DAYS). */
  depthDays: number;
  /**
   * Told after an incremental sync committed changes (the live inbox, issue 38): the provider ids
   * it stored and when the batch was started, so rows created since then are new mail.
   */
  onChanges?: (change: { accountId: string; providerIds: string[]; since: Date }) => void;
}

/** First page of a pass: small, so the newest mail shows within seconds. */
export const FIRST_PAGE_SIZE = 50;
/** Later backfill pages. */
export const BACKFILL_PAGE_SIZE = 500;
