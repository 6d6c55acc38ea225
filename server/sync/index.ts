import { and, asc, eq } from "drizzle-orm";
import type { SyncStatus } from "../../contract/mail.ts";
import type { Db } from "../db/client.ts";
import { mailAccounts, syncStates } from "../db/schema.ts";
import type { JobQueue } from "../jobs/queue.ts";
import { SYNC_JOBS } from "../jobs/sync-jobs.ts";
import type { Clock } from "../lib/clock.ts";
import type { ProviderMessage } from "../providers/mail-provider.ts";
import { ACTION_SYNC_WINDOW_MS, createActionSyncCoalescer } from "./action-sync-coalescer.ts";
import type { SyncContext } from "./context.ts";
import { createMailboxSyncer, type MailboxSyncer, type SyncScheduler } from "./mailbox-syncer.ts";
import { createPoller } from "./poller.ts";
import type { PushSecrets } from "./push-secrets.ts";
import { rekeyIds } from "./rekey.ts";
import { DEFAULT_LEASE_SECONDS, ensureState, markQueued } from "./sync-state.ts";
import type { ProviderClientFactory, SyncAccount, SyncLogger, SyncReason } from "./types.ts";
import { upsertPage } from "./upsert.ts";

export type { ProviderClientFactory, SyncAccount, SyncReason } from "./types.ts";

/** What the mail API (and auth, webhooks) use of the sync engine. */
export interface SyncService {
  /**
   * Enqueues a sync of the account; triggers collapse while one is still queued. "action" (after
   * a write-back) is coalesced in memory: one sync per account at the end of a short window.
   */
  requestSync(accountId: string, reason: SyncReason): Promise<void>;
  /** Per-account progress of the user's accounts ("Syncing 1,234 of 6,046"). */
  syncStatus(userId: string): Promise<SyncStatus[]>;
  /**
   * THE mapping ProviderMessage -> emails row (bucket included), one statement for the lot.
   * `replacedIds` (old -> new provider id, e.g. from a Graph move) re-keys rows first, so the
   * moved message stays one row.
   */
  upsertMessages(
    account: SyncAccount,
    messages: readonly ProviderMessage[],
    opts?: { replacedIds?: ReadonlyMap<string, string> },
  ): Promise<void>;
  /** Re-keys rows after a provider changed ids (Graph archive/trash answer with new ids). */
  rekeyMessages(accountId: string, replacedIds: ReadonlyMap<string, string>): Promise<void>;
  /** Called once a sign-in or link created (or repaired) an account: starts its sync. */
  accountConnected(accountId: string): Promise<void>;
}

type SyncStatusValue = SyncStatus["status"];
const STATUSES: ReadonlySet<string> = new Set(["idle", "syncing", "backfilling", "error", "reauth_required"]);

export interface SyncServicesDeps {
  db: Db;
  queue: JobQueue;
  clock: Clock;
  log: SyncLogger;
  clientFor: ProviderClientFactory;
  secrets: PushSecrets;
  publicUrl: string;
  depthDays: number;
  pollSeconds: number;
  /** SYNC_LEASE_SECONDS: how long a lease lasts without renewal (default 60). */
  leaseSeconds?: number;
  /** Tests shorten these. */
  leaseWaitMs?: number;
  backfillBudgetMs?: number;
  /** Config's GMAIL_UNITS_PER_MINUTE, which also bounds Gmail backfill pages. */
  gmailUnitsPerMinute?: number;
  /** How long syncs asked for after writes are gathered into one (default ACTION_SYNC_WINDOW_MS). */
  actionSyncWindowMs?: number;
  /** Changes committed by incremental syncs (server/events-stream/, the live inbox). */
  onChanges?: SyncContext["onChanges"];
}

/** Builds the sync engine of one process: the service, the syncer behind the jobs, the poller. */
export function createSyncServices(deps: SyncServicesDeps) {
  const { db, queue } = deps;

  const leaseSeconds = deps.leaseSeconds ?? DEFAULT_LEASE_SECONDS;

  // Someone waits for pushed mail, a newly connected mailbox or a refresh, or an account was left
  // by a dead worker: a worker in this process starts it at once rather than at its next poll,
  // also when the request joins a sync queued earlier (e.g. by the poller). Polls and retries
  // wait for their turn.
  const isUrgent = (reason: SyncReason) =>
    reason === "push" || reason === "connected" || reason === "manual" || reason === "takeover";

  async function requestSync(accountId: string, reason: SyncReason, delayMs?: number): Promise<void> {
    if (!(await markQueued(db, accountId))) {
      if (isUrgent(reason)) for (const name of [SYNC_JOBS.push, SYNC_JOBS.account]) queue.wake(name);
      return;
    }
    await sendSync(accountId, reason, delayMs);
  }

  /** Sends the job of a sync whose queued flag the caller has just set. */
  async function sendSync(accountId: string, reason: SyncReason, delayMs?: number): Promise<void> {
    const urgent = isUrgent(reason);
    const name = reason === "push" ? SYNC_JOBS.push : SYNC_JOBS.account;
    const data = reason === "push" ? { accountId } : { accountId, reason };
    await queue.send(name, data, {
      singletonKey: accountId,
      ...(delayMs ? { delayMs } : {}),
      ...(urgent ? { wake: true } : {}),
    });
  }

  // A write is a write: archiving 20 emails in a row asks for one incremental sync, not 20, and
  // costs no statement per click. Not through delayMs: the queued flag it sets would make a push
  // arriving meanwhile wait for the delayed job instead of starting one.
  const actionSyncs = createActionSyncCoalescer({
    windowMs: deps.actionSyncWindowMs ?? ACTION_SYNC_WINDOW_MS,
    request: (accountId) => requestSync(accountId, "action"),
    onError: (accountId, err) =>
      deps.log.warn({ accountId, err: String(err) }, "sync after a write could not be queued"),
  });

  const scheduler: SyncScheduler = {
    sync: (accountId, reason, opts) => requestSync(accountId, reason, opts?.delayMs),
    async backfill(accountId, opts) {
      await queue.send(SYNC_JOBS.backfill, { accountId }, { singletonKey: accountId, ...(opts ?? {}) });
    },
    async watchRenew(accountId, opts) {
      await queue.send(SYNC_JOBS.watchRenew, { accountId }, { singletonKey: accountId, ...(opts ?? {}) });
    },
  };

  const syncer: MailboxSyncer = createMailboxSyncer({
    db,
    clock: deps.clock,
    log: deps.log,
    depthDays: deps.depthDays,
    clientFor: deps.clientFor,
    scheduler,
    publicUrl: deps.publicUrl,
    secrets: deps.secrets,
    leaseSeconds,
    ...(deps.leaseWaitMs === undefined ? {} : { leaseWaitMs: deps.leaseWaitMs }),
    ...(deps.backfillBudgetMs === undefined ? {} : { backfillBudgetMs: deps.backfillBudgetMs }),
    ...(deps.gmailUnitsPerMinute === undefined ? {} : { gmailUnitsPerMinute: deps.gmailUnitsPerMinute }),
    ...(deps.onChanges ? { onChanges: deps.onChanges } : {}),
  });

  const poller = createPoller({
    db,
    clock: deps.clock,
    log: deps.log,
    depthDays: deps.depthDays,
    pollSeconds: deps.pollSeconds,
    leaseSeconds,
    requestSync: (accountId, reason) => requestSync(accountId, reason),
    // claimAbandonedLeases has set the queued flag: send the job without collapsing into the
    // flag, whose own job may have died with the lease holder.
    requestTakeover: (accountId) => sendSync(accountId, "takeover"),
    requestWatchRenew: (accountId) => scheduler.watchRenew(accountId),
  });

  const service: SyncService = {
    async requestSync(accountId, reason) {
      if (reason === "action") actionSyncs.request(accountId);
      else await requestSync(accountId, reason);
    },

    async syncStatus(userId) {
      const rows = await db
        .select({ account: mailAccounts, state: syncStates })
        .from(mailAccounts)
        .leftJoin(syncStates, eq(syncStates.accountId, mailAccounts.id))
        .where(eq(mailAccounts.userId, userId))
        .orderBy(asc(mailAccounts.connectedAt), asc(mailAccounts.id));
      return rows.map(({ account, state }) => {
        let status: SyncStatusValue =
          state && STATUSES.has(state.status) ? (state.status as SyncStatusValue) : "syncing";
        if (!state || state.generation === 0) status = "syncing";
        if (account.status === "reauth_required") status = "reauth_required";
        return {
          accountId: account.id,
          status,
          syncedCount: state?.syncedCount ?? 0,
          totalEstimate: state?.totalEstimate ?? null,
          lastSyncedAt: state?.lastSyncedAt?.toISOString() ?? null,
          lastError: state?.lastError ?? null,
        };
      });
    },

    async upsertMessages(account, messages, opts = {}) {
      // The caller fetched these just now; nothing the user does meanwhile races a message it sent.
      const fetchedAt = deps.clock.now();
      await db.transaction(async (tx) => {
        const [state] = await tx
          .select({ generation: syncStates.generation })
          .from(syncStates)
          .where(eq(syncStates.accountId, account.id));
        if (opts.replacedIds) await rekeyIds(tx, account.id, opts.replacedIds);
        await upsertPage(tx, account, messages, state?.generation ?? 0, fetchedAt);
      });
    },

    async rekeyMessages(accountId, replacedIds) {
      await db.transaction((tx) => rekeyIds(tx, accountId, replacedIds));
    },

    async accountConnected(accountId) {
      await ensureState(db, accountId);
      // A repaired (reconnected) account may carry an old failure; the next sync rewrites it.
      await db
        .update(syncStates)
        .set({ lastError: null })
        .where(and(eq(syncStates.accountId, accountId), eq(syncStates.status, "reauth_required")));
      await requestSync(accountId, "connected");
    },
  };

  /**
   * Sends a sync for every active account, past their queued flags. After the database could not
   * write for a while (a full disk, decision 0053) a flag may stand without its job (the flag was
   * written, the job was not) and pushes were answered without being stored; an incremental sync
   * per account catches up on whatever arrived meanwhile, and jobs still queued absorb these.
   */
  async function resumeAll(): Promise<void> {
    const accounts = await db
      .select({ id: mailAccounts.id })
      .from(mailAccounts)
      .where(eq(mailAccounts.status, "active"));
    for (const { id } of accounts) await sendSync(id, "retry");
  }

  return { service, syncer, poller, scheduler, resumeAll, actionSyncs };
}

export type SyncServices = ReturnType<typeof createSyncServices>;
