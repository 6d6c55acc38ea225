import { and, eq, sql } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import type { Db } from "../db/client.ts";
import { emails, mailAccounts } from "../db/schema.ts";
import type { AccountSummary } from "./accounts.ts";

/** One change to apply to a set of emails (the reader's toggles, bulk actions, delete). */
export interface EmailChange {
  isRead?: boolean;
  isStarred?: boolean;
  isFlagged?: boolean;
  isArchived?: boolean;
  trash?: true;
}

/** A row's state before the change (for the write-back and a rollback), with its account. */
export interface EmailState {
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
  /** Null when the account went away between the click and now (its emails follow by cascade). */
  account: AccountSummary | null;
}

/** The change's columns; `now` and `guardUntil` are placeholders so the statement is prepared once. */
function localSet(change: EmailChange): PgUpdateSetSource<typeof emails> {
  const now = sql`${sql.placeholder("now")}::timestamptz`;
  // Until the write-back ends, sync must not store what it fetched (the provider may not have
  // the change yet): localChangeAt points past the longest write-back and is set to the real
  // end when it finishes. A crash mid-write-back only holds sync off the row that long.
  const set: PgUpdateSetSource<typeof emails> = {
    updatedAt: now,
    localChangeAt: sql`${sql.placeholder("guardUntil")}::timestamptz`,
  };
  if (change.isRead === true) {
    set.isRead = true;
    // Keep the first read time: "read today" counts mail the user read today, not re-reads.
    set.readAt = sql`case when ${emails.isRead} then ${emails.readAt} else ${now} end`;
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

/** The few shapes a change takes (read/unread, star, flag, archive, unarchive, trash). */
function shapeOf(change: EmailChange): string {
  const bit = (v: boolean | undefined) => (v === undefined ? "-" : v ? "1" : "0");
  return `${bit(change.isRead)}${bit(change.isStarred)}${bit(change.isFlagged)}${bit(change.isArchived)}${bit(change.trash)}`;
}

/**
 * Prepared statements of the email actions. The hot path (every archive, read, star) was five
 * round trips before the provider was called (select, update, accounts, and the sync request's
 * two); it is one now: the rows' previous state, their accounts and the change in one statement.
 */
export function createEmailActionQueries(db: Db) {
  const applyStatements = new Map<string, ReturnType<typeof prepareApply>>();

  function prepareApply(change: EmailChange, name: string) {
    // The rows before the change (a CTE reads the statement's snapshot, so the UPDATE's FROM
    // hands back the old values) and their accounts.
    const target = db.$with("target").as(
      db
        .select({
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
          accountUserId: sql<string | null>`${mailAccounts.userId}`.as("account_user_id"),
          accountProvider: sql<string | null>`${mailAccounts.provider}`.as("account_provider"),
          accountEmail: sql<string | null>`${mailAccounts.email}`.as("account_email"),
          accountDisplayName: sql<string | null>`${mailAccounts.displayName}`.as("account_display_name"),
          accountStatus: sql<string | null>`${mailAccounts.status}`.as("account_status"),
          // All or nothing: an id that is not the user's leaves every row unchanged (404).
          found: sql<number>`count(*) over ()`.as("found"),
        })
        .from(emails)
        .leftJoin(mailAccounts, eq(mailAccounts.id, emails.accountId))
        .where(
          and(
            eq(emails.userId, sql.placeholder("userId")),
            sql`${emails.id} = any(${sql.placeholder("ids")}::uuid[])`,
          ),
        ),
    );
    return db
      .with(target)
      .update(emails)
      .set(localSet(change))
      .from(target)
      .where(and(eq(emails.id, target.id), sql`${target.found} = ${sql.placeholder("count")}::int`))
      .returning({
        id: target.id,
        accountId: target.accountId,
        providerId: target.providerId,
        isRead: target.isRead,
        readAt: target.readAt,
        isStarred: target.isStarred,
        isFlagged: target.isFlagged,
        inInbox: target.inInbox,
        isTrashed: target.isTrashed,
        internetMessageId: target.internetMessageId,
        isSent: target.isSent,
        accountUserId: target.accountUserId,
        accountProvider: target.accountProvider,
        accountEmail: target.accountEmail,
        accountDisplayName: target.accountDisplayName,
        accountStatus: target.accountStatus,
      })
      .prepare(name);
  }

  const settle = db
    .update(emails)
    .set({ localChangeAt: sql`${sql.placeholder("now")}::timestamptz` })
    .where(sql`${emails.id} = any(${sql.placeholder("ids")}::uuid[])`)
    .prepare("email_action_settle");

  const providerIds = db
    .select({ id: emails.id, providerId: emails.providerId })
    .from(emails)
    .where(sql`${emails.id} = any(${sql.placeholder("ids")}::uuid[])`)
    .prepare("email_action_provider_ids");

  return {
    /** The rows' provider ids now (an earlier Graph move may have re-keyed them since the click). */
    async providerIds(ids: readonly string[]): Promise<Map<string, string>> {
      const rows = await providerIds.execute({ ids: [...ids] });
      return new Map(rows.map((r) => [r.id, r.providerId]));
    },

    /**
     * Applies the change locally to the user's emails `ids` (distinct) and returns their state
     * before it; an empty list when any id is not the user's (nothing changed then).
     */
    async apply(
      userId: string,
      ids: readonly string[],
      change: EmailChange,
      now: Date,
      guardUntil: Date,
    ): Promise<EmailState[]> {
      const shape = shapeOf(change);
      let statement = applyStatements.get(shape);
      if (!statement) {
        statement = prepareApply(change, `email_action_${shape.replaceAll("-", "x")}`);
        applyStatements.set(shape, statement);
      }
      const rows = await statement.execute({
        userId,
        ids: [...ids],
        count: ids.length,
        now: now.toISOString(),
        guardUntil: guardUntil.toISOString(),
      });
      return rows.map((r) => ({
        id: r.id,
        accountId: r.accountId,
        providerId: r.providerId,
        isRead: r.isRead,
        readAt: r.readAt === null ? null : new Date(r.readAt),
        isStarred: r.isStarred,
        isFlagged: r.isFlagged,
        inInbox: r.inInbox,
        isTrashed: r.isTrashed,
        internetMessageId: r.internetMessageId,
        isSent: r.isSent,
        account:
          r.accountUserId === null
            ? null
            : {
                id: r.accountId,
                userId: r.accountUserId,
                provider: r.accountProvider ?? "gmail",
                email: r.accountEmail ?? "",
                displayName: r.accountDisplayName ?? "",
                status: r.accountStatus ?? "active",
              },
      }));
    },

    /** The provider has the whole change: data fetched from now on may be stored on these rows. */
    async settle(ids: readonly string[], now: Date): Promise<void> {
      await settle.execute({ ids: [...ids], now: now.toISOString() });
    },
  };
}

export type EmailActionQueries = ReturnType<typeof createEmailActionQueries>;
