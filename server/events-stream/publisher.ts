import type { LiveChange } from "../../contract/live-events.ts";
import type { Db } from "../db/client.ts";
import type { DomainEvents, EventBus } from "../events.ts";
import { chunkNotices, type LiveNotice, MAX_IDS_PER_NOTICE } from "./notices.ts";
import { ownerOf, resolveSynced } from "./rows.ts";
import type { NoticeTransport } from "./transport.ts";

type Log = { warn(obj: object, msg: string): void };

/** The domain events of the person's actions, and the change each one makes to a row. */
const ACTIONS: Array<
  [keyof DomainEvents, (payload: { emailIds: string[]; starred?: boolean; flagged?: boolean }) => LiveChange]
> = [
  ["email.archived", () => ({ isArchived: true })],
  ["email.unarchived", () => ({ isArchived: false })],
  ["email.read", () => ({ isRead: true })],
  ["email.unread", () => ({ isRead: false })],
  ["email.starred", (p) => ({ isStarred: p.starred === true })],
  ["email.flagged", (p) => ({ isFlagged: p.flagged === true })],
  ["email.trashed", () => ({ deleted: true })],
];

/**
 * Turns this process's domain events into notices for the live inbox (every role produces: a
 * web process's actions, a worker's syncs and analyses). Returns the unsubscribe function.
 */
export function startLivePublisher(deps: {
  db: Db;
  events: EventBus;
  transport: NoticeTransport;
  log: Log;
}): () => void {
  const { db, events, transport, log } = deps;
  // Sends in the order the events came, one at a time, so a tab never sees them swapped.
  let queue = Promise.resolve();
  const publish = (notices: () => Promise<LiveNotice[]> | LiveNotice[]) => {
    queue = queue.then(async () => {
      try {
        for (const notice of await notices()) await transport.publish(notice);
      } catch (err) {
        log.warn({ err: (err as Error).message }, "live events: publishing failed");
      }
    });
  };
  const stops: Array<() => void> = [];
  for (const [name, changeOf] of ACTIONS) {
    stops.push(
      events.on(name, (payload) => {
        const p = payload as { userId: string; emailIds: string[]; starred?: boolean; flagged?: boolean };
        const change = changeOf(p);
        publish(() =>
          chunkNotices(p.userId, p.emailIds, (ids) => ({
            kind: "mail.changed",
            userId: p.userId,
            ids,
            change,
          })),
        );
      }),
    );
  }
  stops.push(
    events.on("emails.changedBySync", ({ accountId, providerIds, since }) => {
      publish(async () => {
        const found = await resolveSynced(db, accountId, providerIds, since);
        if (!found) return [];
        const { userId } = found;
        return [
          ...chunkNotices(userId, found.created, (ids) => ({ kind: "mail.new", userId, ids })),
          ...chunkNotices(userId, found.changed, (ids) => ({ kind: "mail.changed", userId, ids })),
        ];
      });
    }),
  );
  stops.push(
    events.on("email.writePending", ({ userId, emailIds }) => {
      // The rows as stored now (with their pending mark), as for a change a sync made.
      publish(() => chunkNotices(userId, emailIds, (ids) => ({ kind: "mail.changed", userId, ids })));
    }),
  );
  stops.push(
    events.on("email.writeRefused", ({ userId, emailIds, action, message }) => {
      // Refusals are rare and the tab must hear every one: chunks even past MAX_IDS_PER_BATCH.
      const notices: LiveNotice[] = [];
      for (let i = 0; i < emailIds.length; i += MAX_IDS_PER_NOTICE) {
        const ids = emailIds.slice(i, i + MAX_IDS_PER_NOTICE);
        notices.push({ kind: "write.refused", userId, ids, action, message: message.slice(0, 2000) });
      }
      publish(() => notices);
    }),
  );
  stops.push(
    events.on("emails.analysed", ({ userId, emailIds }) => {
      // An analysis without ids (older callers) moves rows the tab cannot know: it refetches.
      if (!emailIds) publish(() => [{ kind: "overflow", userId }]);
      else publish(() => chunkNotices(userId, emailIds, (ids) => ({ kind: "analysis.done", userId, ids })));
    }),
  );
  // Account owners change only by deletion: remembered per process, bounded by a simple cap.
  const owners = new Map<string, string>();
  const ownerOfAccount = async (accountId: string): Promise<string | undefined> => {
    let userId = owners.get(accountId);
    if (!userId) {
      userId = await ownerOf(db, accountId);
      if (!userId) return undefined;
      if (owners.size > 10_000) owners.clear();
      owners.set(accountId, userId);
    }
    return userId;
  };
  stops.push(
    events.on("sync.progress", ({ accountId }) => {
      publish(async () => {
        const userId = await ownerOfAccount(accountId);
        return userId ? [{ kind: "sync.progress", userId, accountId }] : [];
      });
    }),
  );
  stops.push(
    events.on("emails.touched", ({ accountId }) => {
      publish(async () => {
        const userId = await ownerOfAccount(accountId);
        return userId ? [{ kind: "stale", userId }] : [];
      });
    }),
  );
  return () => {
    for (const stop of stops) stop();
  };
}
