import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { PushSubscriptionInput } from "../../contract/notifications.ts";
import type { Db } from "../db/client.ts";
import { pushSubscriptions } from "../db/schema.ts";
import { DomainError } from "../http/errors.ts";
import type { Clock } from "../lib/clock.ts";
import { BlockedUrlError, checkOutboundUrl } from "../net/safe-fetch.ts";

/** Browsers one person may have subscribed at once; the oldest goes when a new one comes. */
export const MAX_SUBSCRIPTIONS_PER_USER = 10;

export interface StoredSubscription {
  id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
}

export interface SubscriptionStore {
  add(userId: string, input: PushSubscriptionInput): Promise<void>;
  remove(userId: string, endpoint: string): Promise<boolean>;
  list(userId: string): Promise<StoredSubscription[]>;
  /** The push service said the subscription is gone (404/410). */
  drop(id: string): Promise<void>;
  pushed(id: string): Promise<void>;
}

export function createSubscriptionStore(deps: {
  db: Db;
  clock: Clock;
  allowHosts: readonly string[];
}): SubscriptionStore {
  const { db, clock } = deps;
  return {
    async add(userId, input) {
      // The endpoint comes from the browser: refuse at once what the sender's guard would refuse.
      try {
        checkOutboundUrl(input.endpoint, deps.allowHosts);
      } catch (err) {
        if (!(err instanceof BlockedUrlError)) throw err;
        throw new DomainError("validation_failed", "This push endpoint cannot be used.", {
          endpoint: err.message,
        });
      }
      await db
        .insert(pushSubscriptions)
        .values({ userId, endpoint: input.endpoint, p256dh: input.keys.p256dh, auth: input.keys.auth })
        .onConflictDoUpdate({
          target: pushSubscriptions.endpoint,
          // A browser where someone else signs in now notifies them, with its current keys.
          set: { userId, p256dh: input.keys.p256dh, auth: input.keys.auth, createdAt: clock.now() },
        });
      const rows = await db
        .select({ id: pushSubscriptions.id })
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.userId, userId))
        .orderBy(sql`${pushSubscriptions.createdAt} desc`);
      const extra = rows.slice(MAX_SUBSCRIPTIONS_PER_USER).map((r) => r.id);
      if (extra.length > 0) await db.delete(pushSubscriptions).where(inArray(pushSubscriptions.id, extra));
    },
    async remove(userId, endpoint) {
      const gone = await db
        .delete(pushSubscriptions)
        .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)))
        .returning({ id: pushSubscriptions.id });
      return gone.length > 0;
    },
    list: (userId) =>
      db
        .select({
          id: pushSubscriptions.id,
          endpoint: pushSubscriptions.endpoint,
          p256dh: pushSubscriptions.p256dh,
          auth: pushSubscriptions.auth,
        })
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.userId, userId))
        .orderBy(asc(pushSubscriptions.createdAt))
        .limit(MAX_SUBSCRIPTIONS_PER_USER),
    async drop(id) {
      await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, id));
    },
    async pushed(id) {
      await db.update(pushSubscriptions).set({ lastPushAt: clock.now() }).where(eq(pushSubscriptions.id, id));
    },
  };
}
