import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client.ts";
import type { DomainEvents, EventBus } from "../../events.ts";
import type { LiveNotice } from "../../events-stream/notices.ts";
import { ownerOf } from "../../events-stream/rows.ts";
import { UUID } from "../validation.ts";
import type { ChangedEmails, ReadCache } from "./read-cache.ts";

/** What the read cache needs from the live-events transport (server/events-stream/index.ts). */
export interface NoticeFeed {
  onNotice(listener: (notice: LiveNotice) => void, onGap: () => void): () => void;
  touch(userId: string, options?: { emailIds?: string[] }): Promise<void>;
}

/** Domain events that name the emails that changed. */
const EMAIL_EVENTS = [
  "email.archived",
  "email.unarchived",
  "email.read",
  "email.unread",
  "email.starred",
  "email.flagged",
  "email.trashed",
  "email.writeRefused",
  "email.writePending",
] as const satisfies ReadonlyArray<keyof DomainEvents>;

/** Domain events that name only the person: any of their mail may have changed. */
const USER_EVENTS = ["email.sent", "email.unsubscribed", "accounts.changed"] as const satisfies ReadonlyArray<
  keyof DomainEvents
>;

/**
 * The writes that change only the email in their path (`mail.actions.apply(userId, [id], ...)`):
 * an opened email other than that one stays cached.
 */
const ONE_EMAIL_WRITES = new Set(["PATCH /api/emails/:id", "DELETE /api/emails/:id"]);

/** The emails a notice says changed; undefined when any of the person's mail may have. */
export function changedBy(notice: LiveNotice): ChangedEmails {
  switch (notice.kind) {
    case "mail.new":
    case "mail.changed":
    case "analysis.done":
    case "write.refused":
    case "stale":
      return notice.ids;
    // Progress and status only: lists and counts go, no email's own answer moved.
    case "sync.progress":
      return [];
    default:
      return undefined;
  }
}

/**
 * Keeps the read cache true to the database (decision 0078). Three feeds, each enough for its
 * case: this process's domain events (synchronous with the write, before it answers); every
 * write request of a signed-in person, dropped before the answer leaves and announced to the
 * other web processes (covers writes that emit no event: snooze, drafts, settings); and the
 * live-events notices of every process (a worker's sync and analysis, another web process's
 * write), which arrive within milliseconds. A lost notice clears everything. A change that names
 * its emails keeps the cached answers of other single emails (an opened email shows its own row
 * only); lists, searches and counts go with any change.
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
  for (const name of EMAIL_EVENTS) {
    stops.push(
      events.on(name, ({ userId, emailIds }: { userId: string; emailIds: string[] }) =>
        cache.invalidateUser(userId, emailIds),
      ),
    );
  }
  for (const name of USER_EVENTS) {
    stops.push(events.on(name, ({ userId }: { userId: string }) => cache.invalidateUser(userId)));
  }
  stops.push(events.on("emails.analysed", ({ userId, emailIds }) => cache.invalidateUser(userId, emailIds)));
  // An account's owner never changes (accounts are deleted, not moved): remembered, capped.
  const owners = new Map<string, string>();
  const dropOwnerOf = async (accountId: string, changed?: ChangedEmails) => {
    let userId = owners.get(accountId);
    if (!userId) {
      userId = await ownerOf(db, accountId);
      if (!userId) return;
      if (owners.size >= 10_000) owners.clear();
      owners.set(accountId, userId);
    }
    cache.invalidateUser(userId, changed);
  };
  stops.push(
    events.on("emails.synced", ({ accountId, rowsAnnounced }) =>
      dropOwnerOf(accountId, rowsAnnounced && live ? [] : undefined),
    ),
    // The rows by id follow as this process's own notice (mail.new, mail.changed), once the
    // publisher has resolved the provider's ids to ours; without notices, everything goes.
    events.on("emails.changedBySync", ({ accountId }) => dropOwnerOf(accountId, live ? [] : undefined)),
    events.on("emails.touched", ({ accountId }) => dropOwnerOf(accountId)),
    events.on("sync.progress", ({ accountId }) => dropOwnerOf(accountId, [])),
  );
  if (live) {
    stops.push(
      live.onNotice(
        (notice) => cache.invalidateUser(notice.userId, changedBy(notice)),
        () => cache.invalidateAll(),
      ),
    );
  }

  app.addHook("onSend", async (request, _reply, payload) => {
    const method = request.method;
    if (method === "GET" || method === "HEAD" || method === "OPTIONS") return payload;
    const userId = request.auth?.userId;
    if (!userId) return payload;
    const id = ONE_EMAIL_WRITES.has(`${method} ${request.routeOptions.url}`)
      ? (request.params as { id?: unknown }).id
      : undefined;
    // A malformed id was refused (404) and changed nothing; it never goes into a notice.
    const emailIds = typeof id === "string" && UUID.test(id) ? [id] : undefined;
    cache.invalidateUser(userId, emailIds);
    // Other web processes hear it within a NOTIFY round trip; this answer does not wait for it.
    if (live) void live.touch(userId, emailIds ? { emailIds } : {});
    return payload;
  });

  return () => {
    for (const stop of stops) stop();
  };
}
