import { and, eq, isNotNull, sql } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import type { Db } from "../db/client.ts";
import { emails, mailAccounts } from "../db/schema.ts";
import type { Clock } from "../lib/clock.ts";
import { withProviderDeadline } from "../providers/http/deadline.ts";
import type { MailProviderClient, ProviderMessage } from "../providers/mail-provider.ts";
import { findMovedCopy, rekeyIds } from "../sync/rekey.ts";
import type { ProviderClientFactory } from "../sync/types.ts";
import { syncAccountOf } from "./accounts.ts";

/** After a write-back timed out: when to re-read the provider (a late answer may still land). */
const DEFAULT_SETTLE_DELAYS_MS = [1_000, 5_000, 15_000, 60_000];

interface PendingRow {
  id: string;
  providerId: string;
  internetMessageId: string | null;
  isSent: boolean;
  writePendingAt: Date;
  localChangeAt: Date | null;
}

/**
 * Settles emails whose write-back got no answer in time (emails.write_pending_at): re-reads each
 * from the provider and stores the provider's read, star, flag, inbox and trash state, then
 * clears the mark. Whatever the provider did wins: if it applied the change the row keeps it,
 * if it did not the row goes back, which is how the person learns the click did not take.
 * A Graph move that landed late gave the message a new id: the row is re-keyed to it (found by
 * Message-ID), as sync re-keys. A message the provider no longer has anywhere leaves our store,
 * as sync removes mail deleted at the provider (sync leaves pending rows to this settler).
 * Runs shortly after the timeout (with a few retries while the provider stays slow) and after
 * every sync of the account in this process, so a crash between timeout and settle heals at the
 * next poll.
 */
export function createWriteSettler(deps: {
  db: Db;
  clock: Clock;
  providerClient: ProviderClientFactory;
  /** Each provider read gets this long (PROVIDER_WRITE_TIMEOUT_MS). */
  readTimeoutMs: number;
  /** Waits before each settle attempt after a timeout; tests shorten them. */
  delaysMs?: readonly number[];
  log: { warn(obj: object, msg: string): void };
  /** Rows of the account were settled (changed with no event naming them). */
  onSettled?: (accountId: string) => void;
}) {
  const { db, clock } = deps;
  const delays = deps.delaysMs ?? DEFAULT_SETTLE_DELAYS_MS;

  const read = <T>(work: () => Promise<T>): Promise<T> =>
    withProviderDeadline(AbortSignal.timeout(deps.readTimeoutMs), work);

  /**
   * The row's message as the provider has it now: under its id, else under the new id a Graph
   * move gave it (findMovedCopy); null when the provider has it nowhere.
   */
  async function locate(
    client: MailProviderClient,
    accountId: string,
    row: PendingRow,
  ): Promise<ProviderMessage | null> {
    const message = await read(() => client.getMessage(row.providerId));
    return message ?? read(() => findMovedCopy(db, client, accountId, row));
  }

  /**
   * Not while a newer click's write-back is under way (its guard lies past this read): the read
   * may predate it. A newer click that timed out too has its own mark and is read again.
   */
  function stillOurs(row: PendingRow, readAt: Date) {
    const noNewerWrite = row.localChangeAt
      ? sql`(${emails.localChangeAt} is null or ${emails.localChangeAt} <= ${readAt.toISOString()}::timestamptz or ${emails.localChangeAt} = ${row.localChangeAt.toISOString()}::timestamptz)`
      : sql`(${emails.localChangeAt} is null or ${emails.localChangeAt} <= ${readAt.toISOString()}::timestamptz)`;
    return and(eq(emails.id, row.id), eq(emails.writePendingAt, row.writePendingAt), noNewerWrite);
  }

  async function storeProviderState(
    accountId: string,
    row: PendingRow,
    message: ProviderMessage,
    readAt: Date,
  ): Promise<boolean> {
    const set: PgUpdateSetSource<typeof emails> = {
      writePendingAt: null,
      // Data fetched before this read is older than what we store now; later data may replace it.
      localChangeAt: readAt,
      updatedAt: clock.now(),
      isRead: message.isRead,
      readAt: message.isRead
        ? sql`case when ${emails.isRead} then ${emails.readAt} else ${readAt.toISOString()}::timestamptz end`
        : null,
      isStarred: message.isStarred,
      isFlagged: message.isFlagged,
      inInbox: message.inInbox,
      isTrashed: message.isTrashed,
      isSpam: message.isSpam,
    };
    return db.transaction(async (tx) => {
      // The move did land: the row answers to the new id whoever clicked since (later actions
      // and the change feed speak of that id only).
      if (message.providerId !== row.providerId)
        await rekeyIds(tx, accountId, new Map([[row.providerId, message.providerId]]));
      const updated = await tx
        .update(emails)
        .set(set)
        .where(stillOurs(row, readAt))
        .returning({ id: emails.id });
      return updated.length > 0;
    });
  }

  /** Gone at the provider (Gmail deleted it; no Graph folder holds its Message-ID). */
  async function removeGone(row: PendingRow, readAt: Date): Promise<boolean> {
    const removed = await db.delete(emails).where(stillOurs(row, readAt)).returning({ id: emails.id });
    return removed.length > 0;
  }

  /** Settles every pending email of the account now. Returns how many are still pending. */
  async function settle(accountId: string): Promise<{ settled: number; pending: number }> {
    const rows: PendingRow[] = (await db
      .select({
        id: emails.id,
        providerId: emails.providerId,
        internetMessageId: emails.internetMessageId,
        isSent: emails.isSent,
        writePendingAt: emails.writePendingAt,
        localChangeAt: emails.localChangeAt,
      })
      .from(emails)
      .where(and(eq(emails.accountId, accountId), isNotNull(emails.writePendingAt)))) as PendingRow[];
    if (rows.length === 0) return { settled: 0, pending: 0 };
    const [account] = await db.select().from(mailAccounts).where(eq(mailAccounts.id, accountId));
    if (!account) return { settled: 0, pending: 0 };
    const client = deps.providerClient(syncAccountOf(account));
    let settled = 0;
    let pending = 0;
    for (const row of rows) {
      const readAt = clock.now();
      let message: ProviderMessage | null;
      try {
        message = await locate(client, accountId, row);
      } catch (err) {
        // Still slow or failing: the row stays pending for the next attempt or sync.
        deps.log.warn({ err: (err as Error).message, accountId }, "settling a pending write-back failed");
        pending += 1;
        continue;
      }
      const done = message
        ? await storeProviderState(accountId, row, message, readAt)
        : await removeGone(row, readAt);
      if (done) settled += 1;
    }
    if (settled > 0) deps.onSettled?.(accountId);
    return { settled, pending };
  }

  /** Per account with a settle loop in this process: whether a new timeout asks it to start over. */
  const loops = new Map<string, { again: boolean }>();
  const sleeping = new Map<NodeJS.Timeout, () => void>();
  const running = new Set<Promise<void>>();
  let stopped = false;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        sleeping.delete(timer);
        resolve();
      }, ms);
      timer.unref();
      sleeping.set(timer, resolve);
    });

  async function loop(accountId: string, state: { again: boolean }): Promise<void> {
    for (let i = 0; i < delays.length && !stopped; i += 1) {
      if (state.again) {
        state.again = false;
        i = 0;
      }
      await sleep(delays[i] as number);
      if (stopped) return;
      const { pending } = await settle(accountId);
      if (pending === 0 && !state.again) return;
    }
  }

  return {
    settle,
    /**
     * Settles the account in the background after a write-back timed out, after each delay until
     * nothing is pending; what is left after the last is settled by the account's next syncs.
     * Not part of the mail services' idle(): it waits on the provider, not on our own work.
     */
    schedule(accountId: string): void {
      const existing = loops.get(accountId);
      if (existing) {
        existing.again = true;
        return;
      }
      if (stopped) return;
      const state = { again: false };
      loops.set(accountId, state);
      const run: Promise<void> = loop(accountId, state)
        .catch((err: unknown) =>
          deps.log.warn({ err: (err as Error).message, accountId }, "settle loop failed"),
        )
        .finally(() => {
          loops.delete(accountId);
          running.delete(run);
        });
      running.add(run);
    },
    /** Stops the loops (shutdown): what is pending stays marked for the next process's syncs. */
    async stop(): Promise<void> {
      stopped = true;
      for (const [timer, wake] of sleeping) {
        clearTimeout(timer);
        wake();
      }
      sleeping.clear();
      await Promise.all([...running]);
    },
  };
}

export type WriteSettler = ReturnType<typeof createWriteSettler>;
