import { and, count, desc, eq, isNull, not, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { InboxZeroCard, InboxZeroProcessed, InboxZeroQueue } from "../../contract/inbox-zero.ts";
import type { Db } from "../db/client.ts";
import { emails } from "../db/schema.ts";
import { DomainError } from "../http/errors.ts";
import type { Clock } from "../lib/clock.ts";
import { accountDirectory } from "./accounts.ts";
import { summaryColumns } from "./email-lister.ts";
import { type AccountInfo, presentEmail } from "./presenters.ts";

const UNKNOWN_ACCOUNT: AccountInfo = { email: "", provider: "gmail" };

/** Unread inbox mail the mode has not processed (the partial index emails_inbox_zero_idx). */
function waiting(userId: string) {
  return and(
    eq(emails.userId, userId),
    not(emails.isRead),
    eq(emails.inInbox, true),
    not(emails.isTrashed),
    not(emails.isSpam),
    isNull(emails.inboxZeroProcessedAt),
  );
}

/**
 * The stack never shows one conversation twice (issue 35): a card is its conversation's newest
 * waiting email. Counts and progress stay per email (`remaining` counts every waiting one).
 */
function newestOfConversation(userId: string) {
  const newer = alias(emails, "newer");
  return sql`not exists (select 1 from "emails" ${newer} where ${and(
    eq(newer.userId, userId),
    eq(newer.conversationId, emails.conversationId),
    not(newer.isRead),
    eq(newer.inInbox, true),
    not(newer.isTrashed),
    not(newer.isSpam),
    isNull(newer.inboxZeroProcessedAt),
    sql`(${newer.receivedAt}, ${newer.id}) > (${emails.receivedAt}, ${emails.id})`,
  )})`;
}

const text = (value: unknown): string | null => (typeof value === "string" && value.trim() ? value : null);

/**
 * Inbox Zero mode's server side (spec section 4): the queue of unread, not-yet-processed mail
 * across all of the user's accounts, and the processed mark the mode sets after each action (the
 * action itself is the reader's: PATCH or DELETE /api/emails/:id).
 */
export function createInboxZero(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;

  async function setMark(userId: string, emailId: string, at: SQL | null): Promise<InboxZeroProcessed> {
    const [row] = await db
      .update(emails)
      .set({ inboxZeroProcessedAt: at })
      .where(and(eq(emails.userId, userId), eq(emails.id, emailId)))
      .returning({ id: emails.id, processedAt: emails.inboxZeroProcessedAt });
    if (!row) throw new DomainError("not_found", "No such email.");
    return { id: row.id, processedAt: row.processedAt?.toISOString() ?? null };
  }

  return {
    /** The next `limit` emails, newest first, and how many wait in all. */
    async queue(userId: string, limit: number): Promise<InboxZeroQueue> {
      const [rows, [total], accounts] = await Promise.all([
        db
          .select({
            ...summaryColumns,
            // The list's five analysis fields; the card adds the summary and urgency.
            aiAnalysis: sql<Record<string, unknown> | null>`${emails.listAnalysis}`,
            summary: sql<unknown>`${emails.aiAnalysis} -> 'summary'`,
            urgency: sql<unknown>`${emails.aiAnalysis} -> 'urgency'`,
          })
          .from(emails)
          .where(and(waiting(userId), newestOfConversation(userId)))
          .orderBy(desc(emails.receivedAt), desc(emails.id))
          .limit(limit),
        db.select({ n: count() }).from(emails).where(waiting(userId)),
        accountDirectory(db, userId),
      ]);
      const cards: InboxZeroCard[] = rows.map((row) => ({
        ...presentEmail(row, accounts.get(row.accountId) ?? UNKNOWN_ACCOUNT),
        summary: text(row.summary),
        urgency: text(row.urgency),
      }));
      return { emails: cards, remaining: Math.max(total?.n ?? 0, cards.length) };
    },

    /** Marks the email processed (idempotent: the first time is kept). 404 if not the user's. */
    markProcessed(userId: string, emailId: string): Promise<InboxZeroProcessed> {
      const now = clock.now().toISOString();
      return setMark(userId, emailId, sql`coalesce(${emails.inboxZeroProcessedAt}, ${now}::timestamptz)`);
    },

    /** Undo: the email waits in the queue again. 404 if not the user's. */
    unmarkProcessed(userId: string, emailId: string): Promise<InboxZeroProcessed> {
      return setMark(userId, emailId, null);
    },
  };
}

export type InboxZero = ReturnType<typeof createInboxZero>;
