import { and, eq } from "drizzle-orm";
import { syncStates } from "../db/schema.ts";
import type { MailProviderClient } from "../providers/mail-provider.ts";
import type { SyncContext } from "./context.ts";
import { type PushSecrets, sha256Hex } from "./push-secrets.ts";
import { loadState } from "./sync-state.ts";
import type { SyncAccount } from "./types.ts";

export const GMAIL_WEBHOOK_PATH = "/api/webhooks/gmail";
export const GRAPH_WEBHOOK_PATH = "/api/webhooks/graph";

/**
 * Renew when less than this is left: Gmail watches last 7 days and Google recommends renewing
 * daily; Graph mail subscriptions last about 3 days, so a day of margin survives a bad day.
 */
export function renewMarginMs(provider: SyncAccount["provider"]): number {
  return provider === "gmail" ? 6 * 86_400_000 : 86_400_000;
}

export function notificationUrl(
  publicUrl: string,
  provider: SyncAccount["provider"],
  secrets: PushSecrets,
): string {
  return provider === "gmail"
    ? `${publicUrl}${GMAIL_WEBHOOK_PATH}?token=${encodeURIComponent(secrets.gmailToken)}`
    : `${publicUrl}${GRAPH_WEBHOOK_PATH}`;
}

/**
 * What renewWatch did: nothing (not due, or push is closed), renewed a live channel, or started
 * one where none was live. Mail that arrived before a started channel was never announced, so its
 * caller syncs once more.
 */
export type WatchOutcome = "none" | "renewed" | "started";

/**
 * Starts or renews the account's push channel when it is missing or close to expiry. The
 * clientState hash is stored before the provider is asked, so notifications that race the
 * answer are already recognised.
 */
export async function renewWatch(
  ctx: SyncContext,
  account: SyncAccount,
  client: MailProviderClient,
  opts: { publicUrl: string; secrets: PushSecrets; force?: boolean },
): Promise<WatchOutcome> {
  const state = await loadState(ctx.db, account.id);
  if (!state || state.generation === 0) return "none";
  const left = state.pushExpiresAt ? state.pushExpiresAt.getTime() - ctx.clock.nowMs() : -1;
  if (!opts.force && left > renewMarginMs(account.provider)) return "none";
  const clientState = opts.secrets.graphClientState(account.id);
  const clientStateHash = sha256Hex(clientState);
  const open = and(eq(syncStates.accountId, account.id), eq(syncStates.pushClosed, false));
  const marked = await ctx.db
    .update(syncStates)
    .set({ pushClientStateHash: clientStateHash })
    .where(open)
    .returning({ accountId: syncStates.accountId });
  // The account is being deleted (or is gone): its push channel is being stopped, not renewed.
  if (marked.length === 0) return "none";
  const previous = state.pushSubscriptionId;
  // A renewal keeps the subscription's clientState; one made with an older form is replaced.
  const renewable = previous !== null && state.pushClientStateHash === clientStateHash;
  const result = await client.watch(
    notificationUrl(opts.publicUrl, account.provider, opts.secrets),
    clientState,
    renewable ? { subscriptionId: previous } : undefined,
  );
  const stored = await ctx.db
    .update(syncStates)
    .set({
      pushSubscriptionId: result.subscriptionId ?? null,
      pushExpiresAt: result.expiresAt,
      updatedAt: ctx.clock.now(),
    })
    .where(open)
    .returning({ accountId: syncStates.accountId });
  if (stored.length === 0) {
    // The deletion closed the account's push while the provider was answering: it did not see
    // this channel, so stopping it is ours (best effort: the grant may be revoked already, and
    // an unknown channel's notifications are ignored until it expires).
    await client.stopWatch(result.subscriptionId ?? undefined).catch((err: unknown) => {
      ctx.log.warn({ accountId: account.id, err: errorName(err) }, "could not stop a closed account's push");
    });
    return "none";
  }
  // Renewed in place normally; a forgotten subscription was replaced and the old one must stop.
  if (previous && previous !== result.subscriptionId) {
    await client.stopWatch(previous).catch((err: unknown) => {
      ctx.log.warn(
        { accountId: account.id, err: errorName(err) },
        "could not stop the replaced push subscription",
      );
    });
  }
  ctx.log.info({ accountId: account.id, expiresAt: result.expiresAt.toISOString() }, "push watch renewed");
  // Graph forgot the old subscription (or it expired): changes since then were not announced.
  const replaced = previous !== null && previous !== result.subscriptionId;
  return left <= 0 || replaced ? "started" : "renewed";
}

function errorName(err: unknown): string {
  return err instanceof Error ? err.name : "unknown";
}
