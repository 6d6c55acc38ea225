import { and, eq, inArray, sql } from "drizzle-orm";
import type { MailProvider } from "../../contract/auth.ts";
import type { Email } from "../../contract/mail.ts";
import type { Db } from "../db/client.ts";
import { emails, mailAccounts } from "../db/schema.ts";
import { summaryColumns } from "../mail/email-lister.ts";
import { type EmailSummaryRow, presentEmail } from "../mail/presenters.ts";

/**
 * The person's list rows for these ids, as GET /api/emails presents them (no bodies, the list's
 * five analysis fields), newest first. Rows the lists never show (trashed, spam, drafts) are left
 * out: for a change, an id without a row means "gone from the lists". Owner-scoped.
 */
export async function loadListRows(db: Db, userId: string, ids: readonly string[]): Promise<Email[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({
      ...summaryColumns,
      aiAnalysis: sql<Record<string, unknown> | null>`${emails.listAnalysis}`,
      accountEmail: mailAccounts.email,
      accountProvider: mailAccounts.provider,
    })
    .from(emails)
    .innerJoin(mailAccounts, eq(mailAccounts.id, emails.accountId))
    .where(
      and(
        eq(emails.userId, userId),
        inArray(emails.id, [...ids]),
        sql`not ${emails.isTrashed} and not ${emails.isSpam} and not ${emails.isDraft}`,
      ),
    );
  rows.sort((a, b) => b.receivedAt.getTime() - a.receivedAt.getTime() || (a.id < b.id ? 1 : -1));
  return rows.map(({ accountEmail, accountProvider, ...row }) =>
    presentEmail(row as EmailSummaryRow, { email: accountEmail, provider: accountProvider as MailProvider }),
  );
}

/**
 * The rows an incremental sync stored, by provider id (the account's unique index): whose they
 * are, and whether each was created by this sync (new mail) or already there (a change).
 */
export async function resolveSynced(
  db: Db,
  accountId: string,
  providerIds: readonly string[],
  since: Date,
): Promise<{ userId: string; created: string[]; changed: string[] } | undefined> {
  if (providerIds.length === 0) return undefined;
  const rows = await db
    .select({ id: emails.id, userId: emails.userId, createdAt: emails.createdAt })
    .from(emails)
    .where(and(eq(emails.accountId, accountId), inArray(emails.providerId, [...providerIds])));
  const first = rows[0];
  if (!first) return undefined;
  const created: string[] = [];
  const changed: string[] = [];
  for (const row of rows) (row.createdAt >= since ? created : changed).push(row.id);
  return { userId: first.userId, created, changed };
}

/** The owner of an account (sync progress names only its account). */
export async function ownerOf(db: Db, accountId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ userId: mailAccounts.userId })
    .from(mailAccounts)
    .where(eq(mailAccounts.id, accountId));
  return row?.userId;
}
