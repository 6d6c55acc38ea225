import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import { mailAccounts, syncStates } from "../db/schema.ts";
import { isStorageFullError } from "../db/storage-errors.ts";
import type { SyncContext } from "./context.ts";
import { claimAbandonedLeases } from "./sync-state.ts";
import type { SyncReason } from "./types.ts";
import { renewMarginMs } from "./watch-renewer.ts";

export interface PollerDeps extends SyncContext {
  pollSeconds: number;
  /** The sync lease (SYNC_LEASE_SECONDS): how often leases are checked follows from it. */
  leaseSeconds: number;
  requestSync(accountId: string, reason: SyncReason): Promise<void>;
  /** Sends the sync job of an account claimed from a dead lease holder (its flag is already set). */
  requestTakeover(accountId: string): Promise<void>;
  requestWatchRenew(accountId: string): Promise<void>;
}

/**
 * How often workers look for leases that expired with work left: often enough that an account
 * waits little more than the lease for a new worker (1 s for a 5 s lease, 5 s for 60 s), and a
 * query on the small sync_states table costs nothing next to that.
 */
export function takeoverCheckSeconds(leaseSeconds: number): number {
  return Math.min(5, Math.max(1, Math.floor(leaseSeconds / 10)));
}

/**
 * The polling fallback (worker role): pushes can be late or lost, so every `pollSeconds` each
 * active account whose last sync is older than that gets a sync, which also resumes a backfill a
 * killed worker left behind. Push watches close to expiry are renewed. Several workers may poll
 * at once; requestSync collapses their triggers. Between polls, every few seconds, accounts whose
 * lease expired while its holder had work left are taken over at once (a killed worker's account
 * would otherwise wait for the next poll on top of the lease).
 */
export function createPoller(deps: PollerDeps) {
  let timer: NodeJS.Timeout | undefined;
  let first: NodeJS.Timeout | undefined;
  let takeoverTimer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let takingOver: Promise<void> | undefined;

  /** Claims accounts a dead (or hung) lease holder left with work and sends a sync for each. */
  async function takeOver(): Promise<void> {
    const claimed = await claimAbandonedLeases(deps.db, deps.leaseSeconds);
    for (const accountId of claimed) {
      deps.log.warn({ accountId }, "sync lease expired with work left; taking the account over");
      await deps.requestTakeover(accountId);
    }
  }

  async function tick(): Promise<void> {
    const stale = await deps.db
      .select({ id: mailAccounts.id })
      .from(mailAccounts)
      .leftJoin(syncStates, eq(syncStates.accountId, mailAccounts.id))
      .where(
        and(
          eq(mailAccounts.status, "active"),
          or(
            isNull(syncStates.lastSyncedAt),
            lt(syncStates.lastSyncedAt, sql`now() - make_interval(secs => ${deps.pollSeconds})`),
          ),
        ),
      );
    for (const { id } of stale) await deps.requestSync(id, "poll");

    const watched = await deps.db
      .select({ id: mailAccounts.id, provider: mailAccounts.provider, expiresAt: syncStates.pushExpiresAt })
      .from(mailAccounts)
      .innerJoin(syncStates, eq(syncStates.accountId, mailAccounts.id))
      .where(and(eq(mailAccounts.status, "active"), sql`${syncStates.generation} > 0`));
    const now = deps.clock.nowMs();
    for (const w of watched) {
      const margin = renewMarginMs(w.provider === "gmail" ? "gmail" : "outlook");
      if (!w.expiresAt || w.expiresAt.getTime() - now <= margin) await deps.requestWatchRenew(w.id);
    }
  }

  // A full disk is logged once per episode by the database (decision 0053), not at every tick.
  const run = () => {
    if (running) return;
    running = tick()
      .catch((err: unknown) => {
        if (!isStorageFullError(err))
          deps.log.error({ error: err instanceof Error ? err.message : "unknown" }, "sync poll failed");
      })
      .finally(() => {
        running = undefined;
      });
  };

  const runTakeover = () => {
    if (takingOver) return;
    takingOver = takeOver()
      .catch((err: unknown) => {
        if (!isStorageFullError(err))
          deps.log.error(
            { error: err instanceof Error ? err.message : "unknown" },
            "sync takeover check failed",
          );
      })
      .finally(() => {
        takingOver = undefined;
      });
  };

  return {
    /**
     * Polls now-ish (resuming whatever a previous process left) and then every pollSeconds;
     * checks for abandoned leases every takeoverCheckSeconds.
     */
    start(firstDelayMs = 1_000): void {
      if (timer) return;
      first = setTimeout(run, firstDelayMs);
      first.unref();
      timer = setInterval(run, deps.pollSeconds * 1000);
      timer.unref();
      takeoverTimer = setInterval(runTakeover, takeoverCheckSeconds(deps.leaseSeconds) * 1000);
      takeoverTimer.unref();
    },
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      if (first) clearTimeout(first);
      if (takeoverTimer) clearInterval(takeoverTimer);
      timer = undefined;
      first = undefined;
      takeoverTimer = undefined;
      await running;
      await takingOver;
    },
    tick,
    takeOver,
  };
}
