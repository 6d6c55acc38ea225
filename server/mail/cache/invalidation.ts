import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client.ts";
import type { DomainEvents, EventBus } from "../../events.ts";
import type { LiveNotice } from "../../events-stream/notices.ts";
import { ownerOf } from "../../events-stream/rows.ts";
import type { ReadCache } from "./read-cache.ts";

/** What the read cache needs from the live-events transport (server/events-stream/index.ts). */
export interface NoticeFeed {
  onNotice(listener: (notice: LiveNotice) => void, onGap: () => void): () => void;
  touch(userId: string): Promise<void>;
}

/** Domain events that name the person whose mail changed. */
const USER_EVENTS = [
  "email.archived",
  "email.unarchived",
  "email.read",
  "email.unread",
  "email.starred",
  "email.flagged",
  "email.trashed",
  "email.writeRefused",
  "email.writePending",
  "email.sent",
  "email.unsubscribed",
  "accounts.changed",
  "emails.analysed",
] as const satisfies ReadonlyArray<keyof DomainEvents>;

/** Domain events that name an account: its owner's answers go. */
const ACCOUNT_EVENTS = [
  "emails.synced",
  "emails.changedBySync",
  "sync.progress",
] as const satisfies ReadonlyArray<keyof DomainEvents>;

/**
 * Keeps the read cache true to the database (decision 0078). Three feeds, each enough for its
 * case: this process's domain events (synchronous with the write, before it answers); every
 * write request of a signed-in person, dropped before the answer leaves and announced to the
 * other web processes (covers writes that emit no event: snooze, drafts, settings); and the
 * live-events notices of every process (a worker's sync and analysis, another web process's
 * write), which arrive within milliseconds. A lost notice clears everything.
 */
export function keepReadCacheFresh(deps: {
  app: FastifyInstance;
  cache: ReadCache;
  db: Db;
  events: EventBus;
  live?: NoticeFeed;
}): () => void {
  const { app, cache, db, events, live } = deps;
  const stops: Array<() => void> = [];
  for (const name of USER_EVENTS) {
    stops.push(events.on(name, ({ userId }: { userId: string }) => cache.invalidateUser(userId)));
  }
  // An account's owner never changes (accounts are deleted, not moved): remembered, capped.
  const owners = new Map<string, string>();
  const dropOwnerOf = async ({ accountId }: { accountId: string }) => {
    let userId = owners.get(accountId);
    if (!userId) {
      userId = await ownerOf(db, accountId);
      if (!userId) return;
      if (owners.size >= 10_000) owners.clear();
      owners.set(accountId, userId);
    }
    cache.invalidateUser(userId);
  };
  for (const name of ACCOUNT_EVENTS) stops.push(events.on(name, dropOwnerOf));
  if (live) {
    stops.push(
      live.onNotice(
        (notice) => cache.invalidateUser(notice.userId),
        () => cache.invalidateAll(),
      ),
    );
  }

  app.addHook("onSend", async (request, _reply, payload) => {
    const method = request.method;
    if (method === "GET" || method === "HEAD" || method === "OPTIONS") return payload;
    const userId = request.auth?.userId;
    if (!userId) return payload;
    cache.invalidateUser(userId);
    // Other web processes hear it within a NOTIFY round trip; this answer does not wait for it.
    if (live) void live.touch(userId);
    return payload;
  });

  return () => {
    for (const stop of stops) stop();
  };
}
