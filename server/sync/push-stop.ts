import { eq, inArray, type SQLWrapper } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { syncStates } from "../db/schema.ts";
import type { ProviderClientFactory, SyncAccount } from "./types.ts";

/** An account's push channel as it stood when push was closed. */
export interface ClosedPush {
  accountId: string;
  subscriptionId: string | null;
  pushExpiresAt: Date | null;
}

/**
 * Closes push on the accounts (`sync_states.push_closed`) and answers their channels as they are in
 * that same statement. A renewal in flight then stops the channel it makes itself
 * (watch-renewer.ts), so between this read and the account's deletion no channel is missed.
 */
export async function closePush(db: Db, accountIds: string[] | SQLWrapper): Promise<ClosedPush[]> {
  if (Array.isArray(accountIds) && accountIds.length === 0) return [];
  return db
    .update(syncStates)
    .set({ pushClosed: true })
    .where(inArray(syncStates.accountId, accountIds))
    .returning({
      accountId: syncStates.accountId,
      subscriptionId: syncStates.pushSubscriptionId,
      pushExpiresAt: syncStates.pushExpiresAt,
    });
}

/**
 * Push closed for an account that stays after all (its disconnect was refused): open again with
 * no channel, so the next renewal starts one (and syncs the gap, mailbox-syncer.ts).
 */
export async function reopenPush(db: Db, accountId: string): Promise<void> {
  await db
    .update(syncStates)
    .set({ pushClosed: false, pushSubscriptionId: null, pushExpiresAt: null })
    .where(eq(syncStates.accountId, accountId));
}

/**
 * Stops each closed channel at its provider, while the account's tokens still work. Best effort:
 * a provider outage must not keep a person's data; an unstopped channel's notifications are
 * ignored (no account answers to them) until it expires. Returns how many were stopped.
 */
export async function stopChannels(
  closed: readonly ClosedPush[],
  accounts: readonly SyncAccount[],
  clientFor: ProviderClientFactory,
  log: { warn(obj: object, msg: string): void },
): Promise<number> {
  const byId = new Map(accounts.map((a) => [a.id, a]));
  let stopped = 0;
  for (const channel of closed) {
    const account = byId.get(channel.accountId);
    // Gmail's watch has no id (one per mailbox); Graph's subscriptions do.
    if (!account || (channel.pushExpiresAt === null && channel.subscriptionId === null)) continue;
    try {
      await clientFor(account).stopWatch(channel.subscriptionId ?? undefined);
      stopped += 1;
    } catch (err) {
      log.warn(
        { provider: account.provider, reason: err instanceof Error ? err.message : "unknown" },
        "stopping push failed",
      );
    }
  }
  return stopped;
}
