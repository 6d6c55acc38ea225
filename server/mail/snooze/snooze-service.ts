import { and, asc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { MailProvider } from "../../../contract/auth.ts";
import {
  SNOOZE_MAX_DAYS,
  type SnoozeAnswer,
  type SnoozedConversation,
  type SnoozedList,
} from "../../../contract/snooze.ts";
import { isTimeZone } from "../../../contract/time-presets.ts";
import { ProviderError } from "../../auth/errors.ts";
import type { Db } from "../../db/client.ts";
import { dueActions, emails, users } from "../../db/schema.ts";
import { DomainError } from "../../http/errors.ts";
import { CANCELLABLE_STATUSES, type ClaimedAction, OPEN_STATUSES } from "../../jobs/due-actions/store.ts";
import type { Clock } from "../../lib/clock.ts";
import type { MailProviderClient } from "../../providers/mail-provider.ts";
import { findMovedCopy, rekeyIds } from "../../sync/rekey.ts";
import type { ProviderClientFactory } from "../../sync/types.ts";
import { accountsOf, syncAccountOf } from "../accounts.ts";
import { formatSender } from "../presenters.ts";
import { providerFailure } from "../provider-failure.ts";

/** The due action kind that brings a snoozed conversation back (decision 0071). */
export const SNOOZE_WAKE = "snooze.wake";

const DAY_MS = 24 * 60 * 60 * 1000;
/** A time this close to now (or before it) is "in the past": it would wake before the menu closed. */
const PAST_SLACK_MS = 30_000;

/** Rows a conversation's snooze acts on: everything but trash, spam and drafts. */
const shown = sql`not ${emails.isTrashed} and not ${emails.isSpam} and not ${emails.isDraft}`;

interface SnoozePayload {
  conversationId: string;
}

const PROVIDER_NAMES: Record<MailProvider, string> = { gmail: "Gmail", outlook: "Outlook" };

/**
 * Snooze (issue 37, decision 0071): a conversation leaves the inbox at the provider (Gmail's
 * "Snoozed" label, Outlook's "Snoozed" folder) and on our rows (`snoozed_until`), and a
 * `snooze.wake` due action keyed by the conversation brings it back at its time: to the inbox,
 * unread, heading the list, marked "Snoozed until <time>". A new message in the conversation
 * moves the wake to now. Every query is scoped to the person.
 */
export function createSnoozer(deps: {
  db: Db;
  clock: Clock;
  providerClient: ProviderClientFactory;
  /** Sweep due actions now (an early wake was just made due). */
  wakeSweeper: () => void;
  log: { warn(obj: object, msg: string): void };
}) {
  const { db, clock } = deps;

  /** The wake time asked for, checked: in the future, and at most SNOOZE_MAX_DAYS ahead. */
  function checkUntil(text: string): Date {
    const until = new Date(text);
    const now = clock.nowMs();
    if (Number.isNaN(until.getTime()))
      throw new DomainError("validation_failed", "That is not a date and time.", { until: "invalid" });
    if (until.getTime() <= now + PAST_SLACK_MS)
      throw new DomainError("validation_failed", "Pick a time in the future.", { until: "in the past" });
    if (until.getTime() > now + SNOOZE_MAX_DAYS * DAY_MS)
      throw new DomainError("validation_failed", "Pick a time within a year.", { until: "too far ahead" });
    return until;
  }

  async function conversationRows(userId: string, conversationId: string) {
    return db
      .select({
        id: emails.id,
        accountId: emails.accountId,
        providerId: emails.providerId,
        isSent: emails.isSent,
        receivedAt: emails.receivedAt,
        snoozedUntil: emails.snoozedUntil,
      })
      .from(emails)
      .where(and(eq(emails.userId, userId), eq(emails.conversationId, conversationId), shown))
      .orderBy(asc(emails.receivedAt), asc(emails.id));
  }

  async function accountOf(userId: string, accountId: string) {
    const account = (await accountsOf(db, userId)).find((a) => a.id === accountId);
    if (!account) throw new DomainError("not_found", "No such conversation.");
    return account;
  }

  /**
   * The messages a move acts on: the received ones (the person's own sent mail never was in the
   * inbox), or all when the conversation holds only sent mail.
   */
  function targetsOf(rows: { providerId: string; isSent: boolean }[]): string[] {
    const received = rows.filter((r) => !r.isSent);
    return (received.length > 0 ? received : rows).map((r) => r.providerId);
  }

  /**
   * Where the provider no longer finds a message by our id: Graph renamed it in a move whose
   * answer we never stored (a worker died after the call, a retry), or it was deleted. Moved ones
   * are found by Message-ID (rekey.ts) and join `moved`; the rest are gone.
   */
  async function findRenamed(
    client: Pick<MailProviderClient, "findMoved">,
    accountId: string,
    targets: readonly string[],
    moved: Map<string, string>,
  ): Promise<void> {
    const missing = targets.filter((id) => !moved.has(id));
    if (missing.length === 0) return;
    const rows = await db
      .select({
        id: emails.id,
        providerId: emails.providerId,
        internetMessageId: emails.internetMessageId,
        isSent: emails.isSent,
      })
      .from(emails)
      .where(and(eq(emails.accountId, accountId), inArray(emails.providerId, missing)));
    for (const row of rows) {
      const copy = await findMovedCopy(db, client, accountId, row);
      if (copy) moved.set(row.providerId, copy.providerId);
    }
  }

  /**
   * After a provider move: rows re-keyed to Graph's new ids, and rows whose message the provider
   * no longer has (deleted meanwhile) removed. Answers whether any target is left.
   */
  async function settleMoves(
    tx: Db,
    accountId: string,
    targets: readonly string[],
    moved: ReadonlyMap<string, string>,
  ): Promise<boolean> {
    await rekeyIds(tx, accountId, moved);
    const gone = targets.filter((id) => !moved.has(id));
    if (gone.length > 0)
      await tx.delete(emails).where(and(eq(emails.accountId, accountId), inArray(emails.providerId, gone)));
    return gone.length < targets.length;
  }

  /** Marks rows as changed here now, so a sync running during the provider call keeps them. */
  async function markChanging(userId: string, conversationId: string): Promise<void> {
    await db
      .update(emails)
      .set({ localChangeAt: clock.now() })
      .where(and(eq(emails.userId, userId), eq(emails.conversationId, conversationId)));
  }

  async function openWake(tx: Db, userId: string, conversationId: string) {
    const [row] = await tx
      .select({ id: dueActions.id, status: dueActions.status })
      .from(dueActions)
      .where(
        and(
          eq(dueActions.userId, userId),
          eq(dueActions.kind, SNOOZE_WAKE),
          eq(dueActions.ref, conversationId),
          inArray(dueActions.status, OPEN_STATUSES),
        ),
      )
      .limit(1);
    return row;
  }

  function comingBack(): DomainError {
    return new DomainError(
      "conflict",
      "This mail is coming back to the inbox right now. Try again in a moment.",
    );
  }

  /** Sets (or moves) the conversation's wake; a wake already running cannot be moved. */
  async function scheduleWake(tx: Db, userId: string, conversationId: string, until: Date): Promise<void> {
    const open = await openWake(tx, userId, conversationId);
    if (open?.status === "running") throw comingBack();
    if (open) {
      await tx
        .update(dueActions)
        .set({ runAt: until, status: "pending", attempts: 0, lastError: null })
        .where(and(eq(dueActions.id, open.id), inArray(dueActions.status, CANCELLABLE_STATUSES)));
      return;
    }
    const payload: SnoozePayload = { conversationId };
    await tx.insert(dueActions).values({
      userId,
      kind: SNOOZE_WAKE,
      runAt: until,
      payload,
      ref: conversationId,
      createdAt: clock.now(),
    });
  }

  async function snooze(userId: string, conversationId: string, untilText: string): Promise<SnoozeAnswer> {
    const until = checkUntil(untilText);
    const rows = await conversationRows(userId, conversationId);
    const first = rows[0];
    if (!first) throw new DomainError("not_found", "No such conversation.");
    if (rows.some((r) => r.snoozedUntil !== null)) return changeTime(userId, conversationId, untilText);
    const account = await accountOf(userId, first.accountId);
    const provider = account.provider as MailProvider;
    if (account.status === "reauth_required")
      throw new DomainError(
        "provider_reauth_required",
        `Reconnect ${account.email} to snooze its mail: ${PROVIDER_NAMES[provider]} no longer accepts Mailwise's access.`,
      );
    {
      const open = await openWake(db, userId, conversationId);
      if (open?.status === "running") throw comingBack();
    }
    const targets = targetsOf(rows);
    await markChanging(userId, conversationId);
    let moved: Map<string, string>;
    try {
      const client = deps.providerClient(syncAccountOf(account));
      moved = await client.snooze(targets);
      await findRenamed(client, first.accountId, targets, moved);
    } catch (err) {
      throw providerFailure(err, provider, "snooze");
    }
    const left = await db.transaction(async (tx) => {
      if (!(await settleMoves(tx, first.accountId, targets, moved))) return false;
      await tx
        .update(emails)
        .set({
          snoozedUntil: until,
          inInbox: sql`case when ${emails.isSent} then ${emails.inInbox} else false end`,
          resurfacedAt: null,
          resurfaceReason: null,
          localChangeAt: clock.now(),
        })
        .where(and(eq(emails.userId, userId), eq(emails.conversationId, conversationId), shown));
      await scheduleWake(tx, userId, conversationId, until);
      return true;
    });
    if (!left)
      throw new DomainError(
        "not_found",
        `This mail was deleted in ${PROVIDER_NAMES[provider]} meanwhile, so it cannot be snoozed.`,
      );
    return { conversationId, until: until.toISOString() };
  }

  async function changeTime(
    userId: string,
    conversationId: string,
    untilText: string,
  ): Promise<SnoozeAnswer> {
    const until = checkUntil(untilText);
    await db.transaction(async (tx) => {
      const changed = await tx
        .update(emails)
        .set({ snoozedUntil: until })
        .where(
          and(
            eq(emails.userId, userId),
            eq(emails.conversationId, conversationId),
            isNotNull(emails.snoozedUntil),
          ),
        )
        .returning({ id: emails.id });
      if (changed.length === 0) throw new DomainError("not_found", "This conversation is not snoozed.");
      await scheduleWake(tx, userId, conversationId, until);
    });
    return { conversationId, until: until.toISOString() };
  }

  /**
   * Brings the conversation back to the inbox at the provider and here. `resurface`: the wake
   * (unread, heading the list, marked); without it, the person's own "unsnooze now".
   */
  async function bringBack(
    userId: string,
    conversationId: string,
    resurface: boolean,
  ): Promise<"back" | "not_snoozed"> {
    const rows = (await conversationRows(userId, conversationId)).filter((r) => r.snoozedUntil !== null);
    const first = rows[0];
    if (!first) return "not_snoozed";
    const account = await accountOf(userId, first.accountId);
    const reconnect = () =>
      new ProviderError(
        "reauth",
        `Reconnect ${account.email} to bring this mail back: ${PROVIDER_NAMES[account.provider as MailProvider]} no longer accepts Mailwise's access.`,
      );
    if (account.status === "reauth_required") throw reconnect();
    const targets = targetsOf(rows);
    await markChanging(userId, conversationId);
    const client = deps.providerClient(syncAccountOf(account));
    // The grant may die now rather than before (the wake is the first to hear): the person reads
    // the same reconnect text either way, never the token endpoint's error.
    const asPerson = (err: unknown): never => {
      throw err instanceof ProviderError && err.kind === "reauth" ? reconnect() : err;
    };
    const moved = await client.unsnooze(targets).catch(asPerson);
    // A run after a dead worker's: Graph already moved some under new ids; they are found, not lost.
    await findRenamed(client, first.accountId, targets, moved).catch(asPerson);
    // The newest received message (under its new id) is the one marked unread and resurfaced.
    const newest = [...rows].reverse().find((r) => !r.isSent && moved.has(r.providerId));
    const newestId = newest ? moved.get(newest.providerId) : undefined;
    if (resurface && newestId !== undefined) await client.setRead([newestId], false).catch(asPerson);
    const now = clock.now();
    await db.transaction(async (tx) => {
      await settleMoves(tx, first.accountId, targets, moved);
      await tx
        .update(emails)
        .set({
          snoozedUntil: null,
          inInbox: sql`case when ${emails.isSent} then ${emails.inInbox} else true end`,
          localChangeAt: now,
        })
        .where(and(eq(emails.userId, userId), eq(emails.conversationId, conversationId), shown));
      if (resurface && newest)
        await tx
          .update(emails)
          .set({ isRead: false, readAt: null, resurfacedAt: now, resurfaceReason: "snoozed" })
          .where(and(eq(emails.userId, userId), eq(emails.id, newest.id)));
    });
    return "back";
  }

  return {
    snooze,
    changeTime,

    /** Unsnooze now: back in the inbox as it was (read state kept), the wake taken back. */
    async unsnooze(userId: string, conversationId: string): Promise<SnoozeAnswer> {
      const open = await openWake(db, userId, conversationId);
      if (open?.status === "running") throw comingBack();
      const [row] = await conversationRows(userId, conversationId).then((r) =>
        r.filter((x) => x.snoozedUntil !== null),
      );
      if (!row) throw new DomainError("not_found", "This conversation is not snoozed.");
      const account = await accountOf(userId, row.accountId);
      try {
        await bringBack(userId, conversationId, false);
      } catch (err) {
        throw providerFailure(err, account.provider as MailProvider, "unsnooze");
      }
      await db
        .delete(dueActions)
        .where(
          and(
            eq(dueActions.userId, userId),
            eq(dueActions.kind, SNOOZE_WAKE),
            eq(dueActions.ref, conversationId),
            inArray(dueActions.status, CANCELLABLE_STATUSES),
          ),
        );
      return { conversationId, until: null };
    },

    /** The Snoozed view: one row per snoozed conversation, soonest wake first. */
    async list(userId: string): Promise<SnoozedList> {
      const rows = await db
        .select({
          id: emails.id,
          conversationId: emails.conversationId,
          subject: emails.subject,
          fromName: emails.fromName,
          fromAddress: emails.fromAddress,
          snippet: emails.snippet,
          isSent: emails.isSent,
          receivedAt: emails.receivedAt,
          snoozedUntil: emails.snoozedUntil,
          accountId: emails.accountId,
        })
        .from(emails)
        .where(and(eq(emails.userId, userId), isNotNull(emails.snoozedUntil), shown))
        .orderBy(asc(emails.snoozedUntil), asc(emails.receivedAt))
        .limit(5000);
      const accounts = new Map((await accountsOf(db, userId)).map((a) => [a.id, a]));
      const problems = new Map(
        (
          await db
            .select({ ref: dueActions.ref, lastError: dueActions.lastError, status: dueActions.status })
            .from(dueActions)
            .where(
              and(
                eq(dueActions.userId, userId),
                eq(dueActions.kind, SNOOZE_WAKE),
                inArray(dueActions.status, OPEN_STATUSES),
              ),
            )
        ).map((a) => [a.ref, a.status === "failed" || a.lastError ? a.lastError : null]),
      );
      const byConversation = new Map<string, (typeof rows)[number]>();
      for (const row of rows) {
        const kept = byConversation.get(row.conversationId);
        // The newest received message stands for the conversation.
        if (
          !kept ||
          (kept.isSent && !row.isSent) ||
          (kept.isSent === row.isSent && row.receivedAt > kept.receivedAt)
        )
          byConversation.set(row.conversationId, row);
      }
      const items: SnoozedConversation[] = [];
      for (const row of byConversation.values()) {
        const account = accounts.get(row.accountId);
        if (!account || !row.snoozedUntil) continue;
        items.push({
          conversationId: row.conversationId,
          emailId: row.id,
          subject: row.subject,
          from: formatSender(row.fromName, row.fromAddress),
          snippet: row.snippet,
          accountEmail: account.email,
          provider: account.provider as MailProvider,
          until: row.snoozedUntil.toISOString(),
          problem: problems.get(row.conversationId) ?? null,
        });
      }
      items.sort((a, b) => a.until.localeCompare(b.until));
      return { items };
    },

    /** The `snooze.wake` handler: the conversation returns, unread, marked (decision 0071). */
    async wake(action: ClaimedAction): Promise<void> {
      const payload = action.payload as Partial<SnoozePayload> | null;
      if (typeof payload?.conversationId !== "string") return;
      await bringBack(action.userId, payload.conversationId, true);
    },

    /**
     * After a sync of `accountId`: a snoozed conversation that received a new message (not the
     * person's own) wakes now, as Gmail's does. Its wake action is made due; the sweep runs it.
     */
    async wakeOnReplies(accountId: string): Promise<number> {
      const found = await db.execute(sql`
        select distinct s.user_id, s.conversation_id from ${emails} s
        where s.account_id = ${accountId} and s.snoozed_until is not null
          and exists (
            select 1 from ${emails} n
            where n.user_id = s.user_id and n.conversation_id = s.conversation_id
              and n.snoozed_until is null and not n.is_sent and not n.is_draft
              and not n.is_trashed and not n.is_spam
              -- newer than every snoozed message: an older one fetched late is no reply
              and n.received_at > (
                select max(m.received_at) from ${emails} m
                where m.user_id = s.user_id and m.conversation_id = s.conversation_id
                  and m.snoozed_until is not null
              )
          )`);
      let woken = 0;
      for (const row of (found as unknown as { rows: { user_id: string; conversation_id: string }[] }).rows) {
        const due = await db
          .update(dueActions)
          .set({ runAt: clock.now() })
          .where(
            and(
              eq(dueActions.userId, row.user_id),
              eq(dueActions.kind, SNOOZE_WAKE),
              eq(dueActions.ref, row.conversation_id),
              eq(dueActions.status, "pending"),
            ),
          )
          .returning({ id: dueActions.id });
        woken += due.length;
      }
      if (woken > 0) deps.wakeSweeper();
      return woken;
    },

    /** The person's IANA zone (the browser's), for presets computed on the server's side. */
    async setTimeZone(userId: string, timeZone: string): Promise<{ timeZone: string }> {
      if (!isTimeZone(timeZone))
        throw new DomainError("validation_failed", "That is not a time zone.", { timeZone: "unknown zone" });
      await db.update(users).set({ timeZone }).where(eq(users.id, userId));
      return { timeZone };
    },
  };
}

export type Snoozer = ReturnType<typeof createSnoozer>;
