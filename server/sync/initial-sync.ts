import { eq, sql } from "drizzle-orm";
import { syncStates } from "../db/schema.ts";
import type { MailProviderClient } from "../providers/mail-provider.ts";
import { finishPass } from "./backfill.ts";
import { FIRST_PAGE_SIZE, type SyncContext } from "./context.ts";
import type { Lease } from "./sync-state.ts";
import type { SyncAccount } from "./types.ts";
import { upsertPage } from "./upsert.ts";

/**
 * Starts a full pass: the initial sync of a new account, or a resync after the provider forgot
 * our cursor. The cursor is taken FIRST, so every change after this moment reaches incremental
 * sync even while the pass is still listing older mail. The first page is stored with the new
 * cursor in one transaction; the rest is backfill. Returns whether the pass is already complete.
 */
export async function startPass(
  ctx: SyncContext,
  account: SyncAccount,
  client: MailProviderClient,
  lease: Lease,
): Promise<{ done: boolean; generation: number }> {
  const cursor = await client.getCursor();
  const since = new Date(ctx.clock.nowMs() - ctx.depthDays * 86_400_000);
  const fetchedAt = ctx.clock.now();
  const page = await client.listMessages({ pageSize: FIRST_PAGE_SIZE, since });
  const next = page.nextPageToken ?? null;
  const generation = await ctx.db.transaction(async (tx) => {
    const [state] = await tx
      .update(syncStates)
      .set({
        generation: sql`${syncStates.generation} + 1`,
        cursor,
        backfillSince: since,
        backfillPageToken: next,
        backfillDone: false,
        syncedCount: page.messages.length,
        totalEstimate: page.totalEstimate ?? null,
        status: next ? "backfilling" : "syncing",
        lastError: null,
        lastSyncedAt: ctx.clock.now(),
        updatedAt: ctx.clock.now(),
      })
      .where(eq(syncStates.accountId, account.id))
      .returning({ generation: syncStates.generation, leaseOwner: syncStates.leaseOwner });
    if (!state) throw new Error("sync state row is missing");
    if (state.leaseOwner !== lease.owner) throw new Error("sync lease lost before the first page was stored");
    await upsertPage(tx, account, page.messages, state.generation, fetchedAt);
    return state.generation;
  });
  ctx.log.info({ accountId: account.id, generation, count: page.messages.length }, "sync pass started");
  if (next) return { done: false, generation };
  await finishPass(ctx, account, client, generation);
  return { done: true, generation };
}
