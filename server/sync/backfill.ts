import { and, eq, lt, sql } from "drizzle-orm";
import { emails, syncStates } from "../db/schema.ts";
import type { MailProviderClient, MessagePage } from "../providers/mail-provider.ts";
import { BACKFILL_PAGE_SIZE, type SyncContext } from "./context.ts";
import { type Lease, LeaseLostError, loadState } from "./sync-state.ts";
import type { SyncAccount } from "./types.ts";
import { removeByProviderIds, upsertPage } from "./upsert.ts";

/** Rows a pass did not see are checked one by one up to this many; beyond, they are dropped. */
const VERIFY_UNSEEN_LIMIT = 100;

/**
 * Continues the running pass page by page for about `budgetMs`, then hands the account back
 * (other syncs, e.g. a push, get the lease between chunks). Each page and its page token are
 * stored in one transaction, so a killed process resumes at the next page.
 */
export async function runBackfill(
  ctx: SyncContext,
  account: SyncAccount,
  client: MailProviderClient,
  lease: Lease,
  budgetMs: number,
): Promise<"done" | "more"> {
  const started = Date.now();
  // The next page is fetched while the current one is written: the provider's latency and our
  // database work overlap. A fetched page is always stored before returning, so no quota is wasted.
  let prefetched: { token: string; page: Promise<MessagePage> } | undefined;
  for (;;) {
    const state = await loadState(ctx.db, account.id);
    if (!state || state.generation === 0) return "done";
    if (state.backfillDone) return "done";
    const token = state.backfillPageToken;
    if (!token) {
      await finishPass(ctx, account, client, state.generation);
      return "done";
    }
    const since = state.backfillSince ? { since: state.backfillSince } : {};
    const pagePromise =
      prefetched?.token === token
        ? prefetched.page
        : client.listMessages({ pageToken: token, pageSize: BACKFILL_PAGE_SIZE, ...since });
    prefetched = undefined;
    const page = await pagePromise;
    const next = page.nextPageToken ?? null;
    if (next && Date.now() - started < budgetMs) {
      const ahead = client.listMessages({ pageToken: next, pageSize: BACKFILL_PAGE_SIZE, ...since });
      // Awaited on the next turn; a failure here must not become an unhandled rejection meanwhile.
      ahead.catch(() => undefined);
      prefetched = { token: next, page: ahead };
    }
    const stored = await ctx.db.transaction(async (tx) => {
      // Compare-and-set on (generation, page token): a pass restarted meanwhile wins.
      const updated = await tx
        .update(syncStates)
        .set({
          backfillPageToken: next,
          syncedCount: sql`${syncStates.syncedCount} + ${page.messages.length}`,
          totalEstimate: sql`greatest(coalesce(${syncStates.totalEstimate}, 0), ${syncStates.syncedCount} + ${page.messages.length})`,
          updatedAt: ctx.clock.now(),
        })
        .where(
          and(
            eq(syncStates.accountId, account.id),
            eq(syncStates.generation, state.generation),
            sql`${syncStates.backfillPageToken} is not distinct from ${token}`,
            eq(syncStates.leaseOwner, lease.owner),
          ),
        )
        .returning({ accountId: syncStates.accountId });
      if (updated.length === 0) return false;
      await upsertPage(tx, account, page.messages, state.generation);
      return true;
    });
    if (!stored) throw new LeaseLostError("the pass changed under this backfill");
    if (!next) {
      await finishPass(ctx, account, client, state.generation);
      return "done";
    }
    if (!(await lease.renew())) throw new LeaseLostError("sync lease lost during backfill");
    // Over budget: hand the account back, unless a fetched page is still waiting to be stored.
    if (Date.now() - started >= budgetMs && !prefetched) return "more";
  }
}

/**
 * Ends a complete pass. Rows no page of this pass (nor any incremental change since it began)
 * saw are probably gone at the provider; offset-paged listings can skip an item when mail is
 * deleted mid-pass, so a few are asked about one by one before anything is deleted.
 */
export async function finishPass(
  ctx: SyncContext,
  account: SyncAccount,
  client: MailProviderClient,
  generation: number,
): Promise<void> {
  const unseenWhere = and(eq(emails.accountId, account.id), lt(emails.syncGeneration, generation));
  const unseen = await ctx.db
    .select({ providerId: emails.providerId })
    .from(emails)
    .where(unseenWhere)
    .limit(VERIFY_UNSEEN_LIMIT + 1);
  let removed = 0;
  if (unseen.length <= VERIFY_UNSEEN_LIMIT) {
    const gone: string[] = [];
    for (const { providerId } of unseen) {
      const message = await client.getMessage(providerId);
      if (message) await upsertPage(ctx.db, account, [message], generation);
      else gone.push(providerId);
    }
    removed = await removeByProviderIds(ctx.db, account.id, gone);
  } else {
    removed = (await ctx.db.delete(emails).where(unseenWhere).returning({ id: emails.id })).length;
  }
  await ctx.db
    .update(syncStates)
    .set({
      backfillDone: true,
      backfillPageToken: null,
      status: "idle",
      totalEstimate: sql`greatest(coalesce(${syncStates.totalEstimate}, 0), ${syncStates.syncedCount})`,
      lastSyncedAt: ctx.clock.now(),
      updatedAt: ctx.clock.now(),
    })
    .where(and(eq(syncStates.accountId, account.id), eq(syncStates.generation, generation)));
  ctx.log.info({ accountId: account.id, generation, removed }, "sync pass complete");
}
