import { and, eq, sql } from "drizzle-orm";
import { syncStates } from "../db/schema.ts";
import type { MailProviderClient, ProviderMessage } from "../providers/mail-provider.ts";
import type { SyncContext } from "./context.ts";
import { findLateMoves, findMoves, LATE_MOVE_WINDOW_MS, rekeyIds } from "./rekey.ts";
import { type Lease, LeaseLostError } from "./sync-state.ts";
import type { SyncAccount } from "./types.ts";
import { removeByProviderIds, upsertPage } from "./upsert.ts";

/** Changes held in memory before they are written with the cursor they lead to. */
const FLUSH_AT = 500;

/**
 * Applies the provider's changes after the stored cursor until it has no more. Batches are
 * folded in order (the last fate of an id wins) and written together with their cursor in one
 * transaction; the cursor is replaced only if it is still the one we started from, so it only
 * moves forward and a crash repeats changes instead of skipping them. Folding a few batches
 * before writing lets Graph's "old id removed" meet its "new id created" for re-keying (rekey.ts).
 * Throws CursorExpiredError (from the adapter) when a full resync is needed.
 */
export async function runIncremental(
  ctx: SyncContext,
  account: SyncAccount,
  client: MailProviderClient,
  lease: Lease,
  state: { cursor: string; generation: number; backfillDone: boolean },
): Promise<{ upserted: number; removed: number }> {
  let stored = state.cursor;
  let cursor = state.cursor;
  const fate = new Map<string, ProviderMessage | "removed">();
  let totals = { upserted: 0, removed: 0 };
  // When the first listing of the changes being folded was asked for: they are at least this old.
  let fetchedAt: Date | undefined;
  for (;;) {
    fetchedAt ??= ctx.clock.now();
    const batch = await client.listChanges(cursor);
    for (const id of batch.removed) {
      fate.delete(id);
      fate.set(id, "removed");
    }
    for (const message of batch.upserted) {
      fate.delete(message.providerId);
      fate.set(message.providerId, message);
    }
    cursor = batch.cursor;
    if (!batch.hasMore || fate.size >= FLUSH_AT) {
      const counts = await flush(ctx, account, client, lease, {
        from: stored,
        to: cursor,
        fate,
        state,
        fetchedAt,
      });
      totals = { upserted: totals.upserted + counts.upserted, removed: totals.removed + counts.removed };
      stored = cursor;
      fate.clear();
      fetchedAt = undefined;
    }
    if (!batch.hasMore) return totals;
    if (!(await lease.renew())) throw new LeaseLostError("sync lease lost during incremental sync");
  }
}

async function flush(
  ctx: SyncContext,
  account: SyncAccount,
  client: MailProviderClient,
  lease: Lease,
  input: {
    from: string;
    to: string;
    fate: ReadonlyMap<string, ProviderMessage | "removed">;
    state: { generation: number; backfillDone: boolean };
    fetchedAt: Date;
  },
): Promise<{ upserted: number; removed: number }> {
  const upserts: ProviderMessage[] = [];
  const removed = new Set<string>();
  for (const [id, f] of input.fate) {
    if (f === "removed") removed.add(id);
    else upserts.push(f);
  }
  // Asking the provider about old ids happens before the transaction, which stays short.
  const moves = await findMoves(ctx.db, client, account.id, upserts, removed);
  const recently = new Date(ctx.clock.now().getTime() - LATE_MOVE_WINDOW_MS);
  const late = await findLateMoves(ctx.db, client, account.id, removed, recently);
  for (const [oldId, message] of late) {
    if (moves.has(oldId)) continue;
    removed.delete(oldId);
    moves.set(oldId, message.providerId);
    upserts.push(message);
  }
  const since = new Date();
  const counts = await ctx.db.transaction(async (tx) => {
    const moved = await tx
      .update(syncStates)
      .set({
        cursor: input.to,
        lastSyncedAt: ctx.clock.now(),
        lastError: null,
        // A recovered account leaves error/reauth; a pass in progress stays "backfilling".
        status: sql`case when ${syncStates.backfillDone} then 'idle' when ${syncStates.status} in ('error', 'reauth_required') then 'backfilling' else ${syncStates.status} end`,
        updatedAt: ctx.clock.now(),
      })
      .where(
        and(
          eq(syncStates.accountId, account.id),
          eq(syncStates.cursor, input.from),
          eq(syncStates.leaseOwner, lease.owner),
        ),
      )
      .returning({ generation: syncStates.generation });
    const row = moved[0];
    if (!row) throw new LeaseLostError("the cursor moved under this sync");
    await rekeyIds(tx, account.id, moves);
    const upserted = await upsertPage(tx, account, upserts, row.generation, input.fetchedAt);
    const deleted = await removeByProviderIds(tx, account.id, [...removed]);
    return { upserted, removed: deleted };
  });
  // After the commit, so whoever reads the rows sees them.
  if (upserts.length > 0)
    ctx.onChanges?.({ accountId: account.id, providerIds: upserts.map((m) => m.providerId), since });
  return counts;
}
