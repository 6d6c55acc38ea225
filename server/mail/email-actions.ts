import { and, eq, inArray, sql } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import type { Db } from "../db/client.ts";
import { emails } from "../db/schema.ts";
import type { DomainEventName, EventBus } from "../events.ts";
import { DomainError } from "../http/errors.ts";
import type { Clock } from "../lib/clock.ts";
import { withProviderDeadline } from "../providers/http/deadline.ts";
import type { MailProviderClient } from "../providers/mail-provider.ts";
import { findMovedCopy, rekeyIds } from "../sync/rekey.ts";
import type { ProviderClientFactory } from "../sync/types.ts";
import { accountsOf, syncAccountOf } from "./accounts.ts";
import type { MailSync } from "./deps.ts";
import { providerFailure, worstFailure } from "./provider-failure.ts";
import type { WriteSettler } from "./write-settler.ts";

/** Longer than any write-back can take (provider timeouts and retries included). */
const WRITE_BACK_GUARD_MS = 2 * 60_000;

/** PROVIDER_WRITE_TIMEOUT_MS's default: the longest a click waits for the provider. */
export const DEFAULT_WRITE_TIMEOUT_MS = 5_000;

const NO_ANSWER = Symbol("no answer");

/**
 * Runs a write-back for at most `ms`. Past it the provider's answer is given up on: requests in
 * flight are abandoned and no retry starts (withProviderDeadline), and NO_ANSWER comes back,
 * meaning unknown, not failed: the provider may have applied the change, or may still.
 */
async function withinDeadline<T>(ms: number, work: () => Promise<T>): Promise<T | typeof NO_ANSWER> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<typeof NO_ANSWER>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error("the provider did not answer the write-back in time"));
      resolve(NO_ANSWER);
    }, ms);
  });
  const running = withProviderDeadline(controller.signal, work);
  try {
    return await Promise.race([running, deadline]);
  } catch (err) {
    return noAnswer(err) ? NO_ANSWER : Promise.reject(err);
  } finally {
    clearTimeout(timer);
    // Once abandoned, its rejection (the abort) has no one left to tell.
    running.catch(() => undefined);
  }
}

/** A request that timed out may have reached the provider: its outcome is unknown too. */
function noAnswer(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth += 1) {
    if (e.name === "TimeoutError") return true;
  }
  return false;
}

/** One change to apply to a set of emails (the reader's toggles, bulk actions, delete). */
export interface EmailChange {
  isRead?: boolean;
  isStarred?: boolean;
  isFlagged?: boolean;
  isArchived?: boolean;
  trash?: true;
}

const stateColumns = {
  id: emails.id,
  accountId: emails.accountId,
  providerId: emails.providerId,
  isRead: emails.isRead,
  readAt: emails.readAt,
  isStarred: emails.isStarred,
  isFlagged: emails.isFlagged,
  inInbox: emails.inInbox,
  isTrashed: emails.isTrashed,
  internetMessageId: emails.internetMessageId,
  isSent: emails.isSent,
};
type EmailState = {
  id: string;
  accountId: string;
  providerId: string;
  isRead: boolean;
  readAt: Date | null;
  isStarred: boolean;
  isFlagged: boolean;
  inInbox: boolean;
  isTrashed: boolean;
  internetMessageId: string | null;
  isSent: boolean;
};

function whatWasDone(change: EmailChange, count: number): string {
  const n = count === 1 ? "the email" : `${count} emails`;
  if (change.trash) return `deleting ${n}`;
  if (change.isArchived !== undefined) return `${change.isArchived ? "archiving" : "moving back"} ${n}`;
  if (change.isRead !== undefined) return `marking ${n} as ${change.isRead ? "read" : "unread"}`;
  if (change.isStarred !== undefined) return `${change.isStarred ? "starring" : "unstarring"} ${n}`;
  return `${change.isFlagged ? "flagging" : "unflagging"} ${n}`;
}

/** The move a change makes at the provider, if any. */
function moveOf(
  client: MailProviderClient,
  change: EmailChange,
): ((providerIds: string[]) => Promise<Map<string, string>>) | undefined {
  if (change.trash) return (ids) => client.trash(ids);
  if (change.isArchived === true) return (ids) => client.archive(ids);
  if (change.isArchived === false) return (ids) => client.unarchive(ids);
  return undefined;
}

/**
 * The provider calls for a change, flags first: a Graph move re-keys the message. A message a
 * move leaves out of its answer was not under its id (Graph answered 404): an earlier move of
 * ours landed unseen (its answer timed out, the settle has not run yet). It is found by
 * Message-ID and moved from where it is, so the click is not lost; old id -> id at the end.
 */
async function writeBack(
  db: Db,
  client: MailProviderClient,
  rows: readonly EmailState[],
  change: EmailChange,
): Promise<Map<string, string>> {
  const providerIds = rows.map((r) => r.providerId);
  if (change.isRead !== undefined) await client.setRead(providerIds, change.isRead);
  if (change.isStarred !== undefined) await client.setStarred(providerIds, change.isStarred);
  if (change.isFlagged !== undefined) await client.setFlagged(providerIds, change.isFlagged);
  const move = moveOf(client, change);
  if (!move) return new Map();
  const moved = await move(providerIds);
  const found = new Map<string, string>();
  for (const row of rows) {
    if (moved.has(row.providerId)) continue;
    const copy = await findMovedCopy(db, client, row.accountId, row);
    if (copy) found.set(row.providerId, copy.providerId);
  }
  if (found.size === 0) return moved;
  const again = await move([...found.values()]);
  for (const [old, current] of found) moved.set(old, again.get(current) ?? current);
  return moved;
}

/**
 * Archive, read, star, flag and delete: applied locally at once (the UI and stats see it), then
 * written back to each account's provider. If a provider refuses, that account's emails get
 * their previous state back and the caller gets the provider's error; other accounts keep theirs.
 * If a provider does not answer within `writeTimeoutMs`, the outcome is unknown: its emails keep
 * the change, are marked pending (emails.write_pending_at) and are settled from the provider in
 * the background (write-settler.ts); the caller is answered at once (decision 0019).
 */
export function createEmailActions(deps: {
  db: Db;
  clock: Clock;
  events: EventBus;
  providerClient: ProviderClientFactory;
  sync: Pick<MailSync, "requestSync">;
  /** Settles write-backs that timed out (write-settler.ts). */
  settler: Pick<WriteSettler, "schedule">;
  /** PROVIDER_WRITE_TIMEOUT_MS: how long one account's write-back may hold up the request. */
  writeTimeoutMs?: number;
}) {
  const { db, clock } = deps;
  const writeTimeoutMs = deps.writeTimeoutMs ?? DEFAULT_WRITE_TIMEOUT_MS;

  function localSet(change: EmailChange, now: Date) {
    // Until the write-back ends, sync must not store what it fetched (the provider may not have
    // the change yet): localChangeAt points past the longest write-back and is set to the real
    // end when it finishes. A crash mid-write-back only holds sync off the row that long.
    const set: PgUpdateSetSource<typeof emails> = {
      updatedAt: now,
      localChangeAt: new Date(now.getTime() + WRITE_BACK_GUARD_MS),
    };
    if (change.isRead === true) {
      set.isRead = true;
      // Keep the first read time: "read today" counts mail the user read today, not re-reads.
      set.readAt = sql`case when ${emails.isRead} then ${emails.readAt} else ${now.toISOString()}::timestamptz end`;
    } else if (change.isRead === false) {
      set.isRead = false;
      set.readAt = null;
    }
    if (change.isStarred !== undefined) set.isStarred = change.isStarred;
    if (change.isFlagged !== undefined) set.isFlagged = change.isFlagged;
    if (change.isArchived !== undefined) set.inInbox = !change.isArchived;
    // Both providers' unarchive moves the message back from wherever it is, trash included.
    if (change.isArchived === false) set.isTrashed = false;
    if (change.trash) {
      set.isTrashed = true;
      set.inInbox = false;
    }
    return set;
  }

  /** Puts back the touched columns of rows whose provider refused the change. */
  async function rollback(rows: EmailState[], change: EmailChange): Promise<void> {
    await db.transaction(async (tx) => {
      for (const row of rows) {
        const set: Partial<typeof emails.$inferInsert> = {
          updatedAt: clock.now(),
          localChangeAt: clock.now(),
        };
        if (change.isRead !== undefined) {
          set.isRead = row.isRead;
          set.readAt = row.readAt;
        }
        if (change.isStarred !== undefined) set.isStarred = row.isStarred;
        if (change.isFlagged !== undefined) set.isFlagged = row.isFlagged;
        if (change.isArchived !== undefined || change.trash) {
          set.inInbox = row.inInbox;
          set.isTrashed = row.isTrashed;
        }
        await tx.update(emails).set(set).where(eq(emails.id, row.id));
      }
    });
  }

  /** Graph answers a move with a new message id: re-key our rows so later actions reach it. */
  async function rekey(accountId: string, newIds: Map<string, string>): Promise<void> {
    if (newIds.size === 0) return;
    await db.transaction((tx) => rekeyIds(tx, accountId, newIds));
  }

  /**
   * The write-back to this account got no answer in time: its rows keep the change (and the
   * guard that keeps fetched data off them) until the settler has re-read the provider.
   */
  async function markPending(accountId: string, rows: EmailState[]): Promise<void> {
    await db
      .update(emails)
      .set({ writePendingAt: clock.now() })
      .where(
        inArray(
          emails.id,
          rows.map((r) => r.id),
        ),
      );
    deps.settler.schedule(accountId);
    // The account's next sync settles it as well (and brings whatever else changed).
    await deps.sync.requestSync(accountId, "action").catch(() => undefined);
  }

  function announce(userId: string, change: EmailChange, emailIds: string[]): void {
    if (emailIds.length === 0) return;
    const emit = (name: DomainEventName) => deps.events.emit(name, { userId, emailIds } as never);
    if (change.isRead !== undefined) emit(change.isRead ? "email.read" : "email.unread");
    if (change.isStarred !== undefined)
      deps.events.emit("email.starred", { userId, emailIds, starred: change.isStarred });
    if (change.isFlagged !== undefined)
      deps.events.emit("email.flagged", { userId, emailIds, flagged: change.isFlagged });
    if (change.isArchived !== undefined) emit(change.isArchived ? "email.archived" : "email.unarchived");
    if (change.trash) emit("email.trashed");
  }

  return {
    /**
     * Applies `change` to the user's emails. Every id must be the user's (404, nothing changed,
     * otherwise). Returns how many emails changed, and of those how many wait for the provider's
     * answer (`pending`, only when some do); throws the provider's error after rollback.
     */
    async apply(
      userId: string,
      emailIds: readonly string[],
      change: EmailChange,
    ): Promise<{ updated: number; pending?: number }> {
      const ids = [...new Set(emailIds)];
      const rows: EmailState[] = await db
        .select(stateColumns)
        .from(emails)
        .where(and(eq(emails.userId, userId), inArray(emails.id, ids)));
      if (rows.length !== ids.length) {
        throw new DomainError(
          "not_found",
          ids.length === 1 ? "No such email." : "Some of these emails do not exist.",
        );
      }
      await db
        .update(emails)
        .set(localSet(change, clock.now()))
        .where(and(eq(emails.userId, userId), inArray(emails.id, ids)));

      const accounts = new Map((await accountsOf(db, userId)).map((a) => [a.id, a]));
      const byAccount = new Map<string, EmailState[]>();
      for (const row of rows) byAccount.set(row.accountId, [...(byAccount.get(row.accountId) ?? []), row]);

      const failures: DomainError[] = [];
      const done: string[] = [];
      const pending: string[] = [];
      // Accounts are independent mailboxes: write back to them in parallel.
      await Promise.all(
        [...byAccount].map(async ([accountId, group]) => {
          const account = accounts.get(accountId);
          const provider = account?.provider === "outlook" ? "outlook" : "gmail";
          try {
            if (!account) throw new DomainError("not_found", "The account of this email is gone.");
            const client = deps.providerClient(syncAccountOf(account));
            const newIds = await withinDeadline(writeTimeoutMs, () => writeBack(db, client, group, change));
            if (newIds === NO_ANSWER) {
              await markPending(accountId, group);
              pending.push(...group.map((r) => r.id));
              return;
            }
            await rekey(accountId, newIds);
            // From now on the provider has the whole change: data fetched later may be stored.
            await db
              .update(emails)
              .set({ localChangeAt: clock.now() })
              .where(
                inArray(
                  emails.id,
                  group.map((r) => r.id),
                ),
              );
            done.push(...group.map((r) => r.id));
            // A sync page fetched just before this change may be stored just after it and put the
            // old state back. The provider's change notice corrects that, but pushes can be late
            // or lost: one incremental sync after every write-back makes it converge regardless.
            await deps.sync.requestSync(accountId, "action");
          } catch (err) {
            await rollback(group, change);
            failures.push(providerFailure(err, provider, whatWasDone(change, group.length)));
          }
        }),
      );
      // Pending changes are announced by nobody: the game counts confirmed actions (decision 0024).
      announce(userId, change, done);
      const failure = worstFailure(failures);
      if (failure) throw failure;
      const updated = done.length + pending.length;
      return pending.length > 0 ? { updated, pending: pending.length } : { updated };
    },
  };
}

export type EmailActions = ReturnType<typeof createEmailActions>;
