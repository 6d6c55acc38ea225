import { eq, inArray } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { emails } from "../db/schema.ts";
import type { DomainEventName, DomainEvents, EventBus } from "../events.ts";
import { DomainError } from "../http/errors.ts";
import type { Clock } from "../lib/clock.ts";
import { withProviderDeadline } from "../providers/http/deadline.ts";
import type { MailProviderClient } from "../providers/mail-provider.ts";
import { findMovedCopy, rekeyIds } from "../sync/rekey.ts";
import type { ProviderClientFactory } from "../sync/types.ts";
import { syncAccountOf } from "./accounts.ts";
import type { MailSync } from "./deps.ts";
import { createEmailActionQueries, type EmailChange, type EmailState } from "./email-action-queries.ts";
import { providerFailure, worstFailure } from "./provider-failure.ts";
import type { WriteSettler } from "./write-settler.ts";

export type { EmailChange } from "./email-action-queries.ts";

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

/** What a refused write-back was, for the person's tabs (their toast names it). */
type RefusedAction = DomainEvents["email.writeRefused"]["action"];

function actionOf(change: EmailChange): RefusedAction {
  if (change.trash) return "delete";
  if (change.isArchived !== undefined) return change.isArchived ? "archive" : "unarchive";
  if (change.isRead !== undefined) return change.isRead ? "read" : "unread";
  if (change.isStarred !== undefined) return change.isStarred ? "star" : "unstar";
  return change.isFlagged ? "flag" : "unflag";
}

/**
 * Archive, read, star, flag and delete (decision 0086): applied locally and answered at once; the
 * provider write-back is queued per account in this process (in click order, so an undo never
 * overtakes its archive) and runs after the answer. If the provider refuses, that account's
 * emails get their previous state back and `email.writeRefused` tells the person's tabs (a toast,
 * and the rows as they are again); other accounts keep theirs. An account already known to need
 * reconnecting is refused at once (409). If a provider does not answer within `writeTimeoutMs`,
 * the outcome is unknown: its emails keep the change, are marked pending
 * (emails.write_pending_at) and are settled from the provider (write-settler.ts, decision 0019).
 */
export function createEmailActions(deps: {
  db: Db;
  clock: Clock;
  events: EventBus;
  providerClient: ProviderClientFactory;
  sync: Pick<MailSync, "requestSync">;
  /** Settles write-backs that timed out (write-settler.ts). */
  settler: Pick<WriteSettler, "schedule">;
  /** PROVIDER_WRITE_TIMEOUT_MS: how long one account's write-back may take before it is pending. */
  writeTimeoutMs?: number;
  log: { error(obj: object, msg: string): void };
}) {
  const { db, clock } = deps;
  const queries = createEmailActionQueries(db);
  const writeTimeoutMs = deps.writeTimeoutMs ?? DEFAULT_WRITE_TIMEOUT_MS;
  /** Each account's queue of write-backs: the tail of its chain. */
  const chains = new Map<string, Promise<void>>();
  const running = new Set<Promise<void>>();

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
    // Gmail keeps ids across moves: no transaction (it would hold PGlite's one session for nothing).
    if (![...newIds].some(([from, to]) => from !== to)) return;
    await db.transaction((tx) => rekeyIds(tx, accountId, newIds));
  }

  /**
   * The write-back to this account got no answer in time: its rows keep the change (and the
   * guard that keeps fetched data off them) until the settler has re-read the provider.
   */
  async function markPending(userId: string, accountId: string, rows: EmailState[]): Promise<void> {
    await db
      .update(emails)
      .set({ writePendingAt: clock.now() })
      .where(
        inArray(
          emails.id,
          rows.map((r) => r.id),
        ),
      );
    deps.events.emit("email.writePending", { userId, emailIds: rows.map((r) => r.id) });
    deps.settler.schedule(accountId);
    // The account's next sync settles it as well (and brings whatever else changed); coalesced
    // with the other writes' follow-up syncs.
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

  /**
   * One account's write-back, after the answer. Confirmed: the rows may take fetched data again
   * and the change is announced (the game counts confirmed actions, decision 0024). No answer in
   * time: pending. Refused: rolled back, and the person is told.
   */
  async function writeBackGroup(
    userId: string,
    accountId: string,
    group: EmailState[],
    change: EmailChange,
  ): Promise<void> {
    const account = group[0]?.account ?? null;
    const provider = account?.provider === "outlook" ? "outlook" : "gmail";
    const ids = group.map((r) => r.id);
    try {
      if (!account) throw new DomainError("not_found", "The account of this email is gone.");
      const client = deps.providerClient(syncAccountOf(account));
      // Queued behind earlier write-backs: a Graph move among them gave these rows new ids.
      const now = await queries.providerIds(ids);
      const current = group.map((r) => ({ ...r, providerId: now.get(r.id) ?? r.providerId }));
      const newIds = await withinDeadline(writeTimeoutMs, () => writeBack(db, client, current, change));
      if (newIds === NO_ANSWER) {
        await markPending(userId, accountId, group);
        return;
      }
      await rekey(accountId, newIds);
      // From now on the provider has the whole change: data fetched later may be stored.
      await queries.settle(ids, clock.now());
      announce(userId, change, ids);
      // A sync page fetched just before this change may be stored just after it and put the
      // old state back. The provider's change notice corrects that, but pushes can be late
      // or lost: an incremental sync makes it converge regardless. The sync service gathers
      // these requests into one sync per account per short window (action-sync-coalescer.ts),
      // so a run of archives costs one sync, not one each.
      await deps.sync.requestSync(accountId, "action");
    } catch (err) {
      const failure = providerFailure(err, provider, whatWasDone(change, group.length));
      await rollback(group, change);
      deps.events.emit("email.writeRefused", {
        userId,
        emailIds: ids,
        action: actionOf(change),
        code: failure.code,
        message: failure.message,
      });
    }
  }

  /** Queues the write-back behind the account's earlier ones (click order reaches the provider). */
  function enqueue(accountId: string, work: () => Promise<void>): void {
    const next = (chains.get(accountId) ?? Promise.resolve())
      .then(work)
      .catch((err: unknown) => deps.log.error({ err, accountId }, "a write-back failed"));
    chains.set(accountId, next);
    running.add(next);
    void next.finally(() => {
      running.delete(next);
      if (chains.get(accountId) === next) chains.delete(accountId);
    });
  }

  return {
    /**
     * Applies `change` to the user's emails and queues the provider write-backs. Every id must be
     * the user's (404, nothing changed, otherwise); an account that needs reconnecting answers
     * 409 (its emails unchanged). Returns how many emails changed.
     */
    async apply(
      userId: string,
      emailIds: readonly string[],
      change: EmailChange,
    ): Promise<{ updated: number }> {
      const ids = [...new Set(emailIds)];
      const now = clock.now();
      const rows = await queries.apply(
        userId,
        ids,
        change,
        now,
        new Date(now.getTime() + WRITE_BACK_GUARD_MS),
      );
      if (rows.length !== ids.length) {
        throw new DomainError(
          "not_found",
          ids.length === 1 ? "No such email." : "Some of these emails do not exist.",
        );
      }
      const byAccount = new Map<string, EmailState[]>();
      for (const row of rows) {
        const group = byAccount.get(row.accountId);
        if (group) group.push(row);
        else byAccount.set(row.accountId, [row]);
      }
      const refused: DomainError[] = [];
      for (const [accountId, group] of byAccount) {
        const account = group[0]?.account;
        if (account?.status === "reauth_required") {
          // Only the person can fix this: no write-back would succeed, so say so now.
          await rollback(group, change);
          const provider = account.provider === "outlook" ? "outlook" : "gmail";
          refused.push(
            providerFailure(
              new DomainError("provider_reauth_required", "Reconnect this account to continue."),
              provider,
              whatWasDone(change, group.length),
            ),
          );
          continue;
        }
        enqueue(accountId, () => writeBackGroup(userId, accountId, group, change));
      }
      // As before the queue: other accounts keep their change, and the caller hears the refusal.
      const failure = worstFailure(refused);
      if (failure) throw failure;
      return { updated: ids.length };
    },

    /** Waits for the queued write-backs (tests, shutdown). */
    async idle(): Promise<void> {
      while (running.size > 0) await Promise.all([...running]);
    },
  };
}

export type EmailActions = ReturnType<typeof createEmailActions>;
