import { eq } from "drizzle-orm";
import type { MailProvider } from "../../contract/auth.ts";
import { mailAccounts, syncStates } from "../db/schema.ts";
import { accountSummaryColumns } from "../mail/accounts.ts";
import { GMAIL_UNITS_PER_MINUTE } from "../providers/gmail/costs.ts";
import { CursorExpiredError, type MailProviderClient } from "../providers/mail-provider.ts";
import { gmailPageCap, PagePacer, runBackfill } from "./backfill.ts";
import type { SyncContext } from "./context.ts";
import { failureOf, recordFailure } from "./failures.ts";
import { runIncremental } from "./incremental-sync.ts";
import { startPass } from "./initial-sync.ts";
import type { PushSecrets } from "./push-secrets.ts";
import {
  acquireLease,
  clearQueued,
  type Lease,
  type LeaseKind,
  leaseHolder,
  loadState,
} from "./sync-state.ts";
import type { ProviderClientFactory, SyncAccount, SyncReason } from "./types.ts";
import { renewWatch, type WatchOutcome } from "./watch-renewer.ts";

/** How the syncer asks for follow-up work; the job layer implements it with pg-boss. */
export interface SyncScheduler {
  sync(accountId: string, reason: SyncReason, opts?: { delayMs?: number }): Promise<void>;
  /** `wake`: a worker of this process starts it now, not at its next poll (someone is waiting). */
  backfill(accountId: string, opts?: { delayMs?: number; wake?: boolean }): Promise<void>;
  watchRenew(accountId: string, opts?: { delayMs?: number }): Promise<void>;
}

/**
 * What a sync run tells its caller. `rowsAnnounced`: every row it changed was announced through
 * onChanges (an incremental run that removed nothing), so nothing else about the mail moved.
 */
export interface SyncOutcome {
  rowsAnnounced: boolean;
}

export interface MailboxSyncerDeps extends SyncContext {
  clientFor: ProviderClientFactory;
  scheduler: SyncScheduler;
  publicUrl: string;
  secrets: PushSecrets;
  /** How long a sync waits for another worker's step on the same account (default 4 s). */
  leaseWaitMs?: number;
  /** How long the account's lease lasts without renewal (SYNC_LEASE_SECONDS, default 60 s). */
  leaseSeconds?: number;
  /** How long one backfill job lists pages before handing the account back (default 3 s). */
  backfillBudgetMs?: number;
  /** The Gmail quota our limiter spends (GMAIL_UNITS_PER_MINUTE); it bounds Gmail backfill pages. */
  gmailUnitsPerMinute?: number;
}

/** Thrown into the queue so a failed step is retried by kind; carries no provider text. */
class RetryableSyncError extends Error {
  override name = "RetryableSyncError";
  constructor(
    readonly kind: "rate_limit" | "transient",
    readonly retryAfterMs: number | undefined,
  ) {
    super(`sync step failed (${kind})`);
  }
}

/**
 * The mailbox syncer: one entry point per job. Every step runs under the account's lease, so two
 * workers (or two jobs in one worker) never sync one mailbox at once.
 */
export function createMailboxSyncer(deps: MailboxSyncerDeps) {
  const ctx: SyncContext = deps;
  const leaseWaitMs = deps.leaseWaitMs ?? 4_000;
  const budgetMs = deps.backfillBudgetMs ?? 3_000;
  // Page sizes learned per account in this process, so a new backfill job starts where the last
  // one left off instead of relearning the provider's pace.
  const pacers = new Map<string, PagePacer>();

  async function loadAccount(accountId: string): Promise<(SyncAccount & { status: string }) | undefined> {
    const [row] = await deps.db
      .select(accountSummaryColumns)
      .from(mailAccounts)
      .where(eq(mailAccounts.id, accountId));
    return row ? { ...row, provider: row.provider as MailProvider } : undefined;
  }

  /** Runs `step` for an active account under its lease; failures are recorded and sorted by kind. */
  async function withAccount(
    accountId: string,
    kind: LeaseKind,
    onBusy: () => Promise<void>,
    step: (account: SyncAccount, lease: Lease) => Promise<void>,
  ): Promise<void> {
    const account = await loadAccount(accountId);
    if (!account) return; // Disconnected meanwhile: its rows are gone by cascade.
    if (account.status === "reauth_required") {
      // A sync that will not run lets go of its queued flag, so the next trigger sends a job.
      await deps.db
        .update(syncStates)
        .set({
          status: "reauth_required",
          updatedAt: deps.clock.now(),
          ...(kind === "sync" ? { queuedAt: null } : {}),
        })
        .where(eq(syncStates.accountId, accountId));
      return;
    }
    const lease = await acquireLease(deps.db, accountId, leaseWaitMs, kind, {
      ...(kind === "backfill" ? { unlessHeldBy: "backfill" as const } : {}),
      ...(deps.leaseSeconds === undefined ? {} : { leaseSeconds: deps.leaseSeconds }),
    });
    if (!lease) {
      await onBusy();
      return;
    }
    try {
      await step(account, lease);
    } catch (err) {
      if (!(await recordFailure(ctx, accountId, err))) return;
      const failure = failureOf(err);
      throw new RetryableSyncError(
        failure.kind === "rate_limit" ? "rate_limit" : "transient",
        failure.retryAfterMs,
      );
    } finally {
      await lease.release();
    }
  }

  /**
   * A channel that was not live until now announces only what changes from now on: mail that
   * arrived after the cursor and before the channel (the first seconds of a linked account, or a
   * lapsed channel) would wait for the poll. One sync from the cursor covers that gap.
   */
  async function catchUpAfter(outcome: WatchOutcome, accountId: string): Promise<void> {
    if (outcome === "started") await deps.scheduler.sync(accountId, "push");
  }

  /** Registers (or renews) the push channel inline; a failure is left to the retried watch job. */
  async function startPush(account: SyncAccount, client: MailProviderClient): Promise<void> {
    let outcome: WatchOutcome;
    try {
      outcome = await renewWatch(ctx, account, client, { publicUrl: deps.publicUrl, secrets: deps.secrets });
    } catch (err) {
      deps.log.warn(
        { accountId: account.id, kind: failureOf(err).kind },
        "push registration failed; retrying it as a job",
      );
      await deps.scheduler.watchRenew(account.id);
      return;
    }
    await catchUpAfter(outcome, account.id);
  }

  return {
    /** sync.account / sync.push: incremental sync, or a full pass when there is no usable cursor. */
    async syncAccount(accountId: string, reason: SyncReason): Promise<SyncOutcome> {
      // Until the run says otherwise, rows may have changed unannounced.
      const outcome: SyncOutcome = { rowsAnnounced: false };
      await withAccount(
        accountId,
        "sync",
        // Someone else is syncing this mailbox; come back shortly so this trigger's change is not
        // lost. The queued flag is ours until here: dropping it lets the new request send a job.
        async () => {
          await clearQueued(deps.db, accountId);
          await deps.scheduler.sync(accountId, reason, { delayMs: 1_000 });
          outcome.rowsAnnounced = true;
        },
        async (account, lease) => {
          // Cleared only now, under the lease and before any change is read: until here the flag
          // told a running backfill to hand over, and collapsed later triggers into this sync.
          await clearQueued(deps.db, accountId);
          const client = deps.clientFor(account);
          const state = await loadState(deps.db, accountId);
          let startedPass = false;
          if (!state || state.generation === 0 || !state.cursor) {
            await startPass(ctx, account, client, lease);
            startedPass = true;
          } else {
            try {
              const counts = await runIncremental(ctx, account, client, lease, {
                cursor: state.cursor,
                generation: state.generation,
                backfillDone: state.backfillDone,
              });
              deps.log.info({ accountId, reason, ...counts }, "incremental sync done");
              // Every stored change went out as onChanges; removed rows did not.
              outcome.rowsAnnounced = counts.removed === 0;
            } catch (err) {
              if (!(err instanceof CursorExpiredError)) throw err;
              deps.log.warn({ accountId }, "sync cursor expired; starting a full resync");
              await startPass(ctx, account, client, lease);
              startedPass = true;
            }
          }
          // A new pass starts push right here, under this lease: its backfill may hold the account
          // for minutes, and mail arriving meanwhile should come by push from the first page on.
          if (startedPass) await startPush(account, client);
          const after = await loadState(deps.db, accountId);
          if (!startedPass && !after?.pushExpiresAt) await deps.scheduler.watchRenew(accountId);
          // Push syncs skip this: a backfill chain is already running and re-enqueues itself.
          if (after && !after.backfillDone && (startedPass || reason !== "push"))
            await deps.scheduler.backfill(accountId, { wake: startedPass });
        },
      );
      return outcome;
    },

    /**
     * sync.backfill: a few pages of the running pass, then re-enqueue while pages remain. It hands
     * the account to a queued sync between pages and comes back a moment later.
     */
    async backfill(accountId: string): Promise<void> {
      const run: { outcome: "done" | "more" | "yielded" } = { outcome: "done" };
      await withAccount(
        accountId,
        "backfill",
        async () => {
          // Another backfill job of this account carries the pass on, so this one can just go;
          // behind a sync or a watch renewal it comes back, or the pass would stall until a poll.
          if ((await leaseHolder(deps.db, accountId)) !== "backfill")
            await deps.scheduler.backfill(accountId, { delayMs: 1_000 });
        },
        async (account, lease) => {
          let pacer = pacers.get(accountId);
          if (!pacer) {
            const units = deps.gmailUnitsPerMinute ?? GMAIL_UNITS_PER_MINUTE;
            pacer = new PagePacer(account.provider === "gmail" ? gmailPageCap(units) : undefined);
            pacers.set(accountId, pacer);
          }
          run.outcome = await runBackfill(ctx, account, deps.clientFor(account), lease, budgetMs, pacer);
          if (run.outcome === "done") pacers.delete(accountId);
        },
      );
      if (run.outcome === "more") await deps.scheduler.backfill(accountId, { wake: true });
      // The waiting sync polls the lease every 100 ms; the delay lets it in before this comes back.
      if (run.outcome === "yielded") await deps.scheduler.backfill(accountId, { delayMs: 1_000 });
    },

    /** sync.watch-renew: start or renew the push channel when it is missing or near expiry. */
    async renewWatch(accountId: string, opts: { force?: boolean } = {}): Promise<void> {
      await withAccount(
        accountId,
        "watch",
        // Behind a long step (a backfill under quota), try again: dropping it would leave the
        // account without push until the poller notices.
        () => deps.scheduler.watchRenew(accountId, { delayMs: 1_000 }),
        async (account) => {
          const outcome = await renewWatch(ctx, account, deps.clientFor(account), {
            publicUrl: deps.publicUrl,
            secrets: deps.secrets,
            ...(opts.force ? { force: true } : {}),
          });
          await catchUpAfter(outcome, account.id);
        },
      );
    },
  };
}

export type MailboxSyncer = ReturnType<typeof createMailboxSyncer>;
