import { eq } from "drizzle-orm";
import type { MailProvider } from "../../contract/auth.ts";
import { mailAccounts, syncStates } from "../db/schema.ts";
import { CursorExpiredError } from "../providers/mail-provider.ts";
import { runBackfill } from "./backfill.ts";
import type { SyncContext } from "./context.ts";
import { failureOf, recordFailure } from "./failures.ts";
import { runIncremental } from "./incremental-sync.ts";
import { startPass } from "./initial-sync.ts";
import type { PushSecrets } from "./push-secrets.ts";
import { acquireLease, clearQueued, type Lease, loadState } from "./sync-state.ts";
import type { ProviderClientFactory, SyncAccount, SyncReason } from "./types.ts";
import { renewWatch } from "./watch-renewer.ts";

/** How the syncer asks for follow-up work; the job layer implements it with pg-boss. */
export interface SyncScheduler {
  sync(accountId: string, reason: SyncReason, opts?: { delayMs?: number }): Promise<void>;
  backfill(accountId: string, opts?: { delayMs?: number }): Promise<void>;
  watchRenew(accountId: string): Promise<void>;
}

export interface MailboxSyncerDeps extends SyncContext {
  clientFor: ProviderClientFactory;
  scheduler: SyncScheduler;
  publicUrl: string;
  secrets: PushSecrets;
  /** How long a sync waits for another worker's step on the same account (default 4 s). */
  leaseWaitMs?: number;
  /** How long one backfill job lists pages before handing the account back (default 3 s). */
  backfillBudgetMs?: number;
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

  async function loadAccount(accountId: string): Promise<(SyncAccount & { status: string }) | undefined> {
    const [row] = await deps.db
      .select({
        id: mailAccounts.id,
        userId: mailAccounts.userId,
        provider: mailAccounts.provider,
        email: mailAccounts.email,
        displayName: mailAccounts.displayName,
        status: mailAccounts.status,
      })
      .from(mailAccounts)
      .where(eq(mailAccounts.id, accountId));
    return row ? { ...row, provider: row.provider as MailProvider } : undefined;
  }

  /** Runs `step` for an active account under its lease; failures are recorded and sorted by kind. */
  async function withAccount(
    accountId: string,
    onBusy: () => Promise<void>,
    step: (account: SyncAccount, lease: Lease) => Promise<void>,
  ): Promise<void> {
    const account = await loadAccount(accountId);
    if (!account) return; // Disconnected meanwhile: its rows are gone by cascade.
    if (account.status === "reauth_required") {
      await deps.db
        .update(syncStates)
        .set({ status: "reauth_required", updatedAt: deps.clock.now() })
        .where(eq(syncStates.accountId, accountId));
      return;
    }
    const lease = await acquireLease(deps.db, accountId, leaseWaitMs);
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

  return {
    /** sync.account / sync.push: incremental sync, or a full pass when there is no usable cursor. */
    async syncAccount(accountId: string, reason: SyncReason): Promise<void> {
      await clearQueued(deps.db, accountId);
      await withAccount(
        accountId,
        // Someone else is syncing this mailbox; come back shortly so this trigger's change is not lost.
        () => deps.scheduler.sync(accountId, reason, { delayMs: 1_000 }),
        async (account, lease) => {
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
            } catch (err) {
              if (!(err instanceof CursorExpiredError)) throw err;
              deps.log.warn({ accountId }, "sync cursor expired; starting a full resync");
              await startPass(ctx, account, client, lease);
              startedPass = true;
            }
          }
          const after = await loadState(deps.db, accountId);
          // Push syncs skip this: a backfill chain is already running and re-enqueues itself.
          if (after && !after.backfillDone && (startedPass || reason !== "push"))
            await deps.scheduler.backfill(accountId);
          if (startedPass || !after?.pushExpiresAt) await deps.scheduler.watchRenew(accountId);
        },
      );
    },

    /** sync.backfill: a few pages of the running pass, then re-enqueue while pages remain. */
    async backfill(accountId: string): Promise<void> {
      let more = false;
      await withAccount(
        accountId,
        // The holder will enqueue a backfill when it is done, so a busy backfill can just go.
        async () => undefined,
        async (account, lease) => {
          more = (await runBackfill(ctx, account, deps.clientFor(account), lease, budgetMs)) === "more";
        },
      );
      if (more) await deps.scheduler.backfill(accountId);
    },

    /** sync.watch-renew: start or renew the push channel when it is missing or near expiry. */
    async renewWatch(accountId: string, opts: { force?: boolean } = {}): Promise<void> {
      await withAccount(
        accountId,
        async () => undefined,
        async (account) => {
          await renewWatch(ctx, account, deps.clientFor(account), {
            publicUrl: deps.publicUrl,
            secrets: deps.secrets,
            ...(opts.force ? { force: true } : {}),
          });
        },
      );
    },
  };
}

export type MailboxSyncer = ReturnType<typeof createMailboxSyncer>;
