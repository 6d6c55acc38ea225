import { and, eq, type Placeholder, type SQL, sql } from "drizzle-orm";
import { type AnyPgColumn, alias } from "drizzle-orm/pg-core";
import type { MailProvider } from "../../contract/auth.ts";
import type { ConversationListResponse } from "../../contract/conversations.ts";
import type { Email, EmailListQuery, EmailListResponse } from "../../contract/mail.ts";
import type { Db } from "../db/client.ts";
import { emails, mailAccounts, type StoredAddress } from "../db/schema.ts";
import { DomainError } from "../http/errors.ts";
import { UNKNOWN_ACCOUNT } from "./accounts.ts";
import type { AttachmentLinks } from "./attachments/links.ts";
import { presentStoredAttachments } from "./attachments/present.ts";
import { createConversationSummaries } from "./conversations/summary.ts";
import { decodeCursor, encodeCursor } from "./cursor.ts";
import { type EmailSummaryRow, presentEmail } from "./presenters.ts";
import { type SearchColumns, searchFilter } from "./search-query.ts";

/** Columns of a list row: everything the Email shape needs except the bodies. */
export const summaryColumns = {
  id: emails.id,
  accountId: emails.accountId,
  threadId: emails.threadId,
  conversationId: emails.conversationId,
  fromName: emails.fromName,
  fromAddress: emails.fromAddress,
  toRecipients: emails.toRecipients,
  ccRecipients: emails.ccRecipients,
  subject: emails.subject,
  snippet: emails.snippet,
  receivedAt: emails.receivedAt,
  isRead: emails.isRead,
  isStarred: emails.isStarred,
  isFlagged: emails.isFlagged,
  inInbox: emails.inInbox,
  isTrashed: emails.isTrashed,
  isSpam: emails.isSpam,
  bucket: emails.bucket,
  listUnsubscribe: emails.listUnsubscribe,
  aiAnalysis: emails.aiAnalysis,
  hasAttachments: emails.hasAttachments,
  resurfacedAt: emails.resurfacedAt,
  resurfaceReason: emails.resurfaceReason,
};

/**
 * What a page query binds: real values (listQuery) or drizzle placeholders (the prepared
 * statements of createEmailLister). Both go through pageSelect, so they are one query.
 */
interface PageParams {
  userId: string | Placeholder;
  /** Rows to read: a bound value, or SQL text (a prepared page's limit, see statementLimit). */
  limit: number | SQL;
  bucket?: string | Placeholder | undefined;
  accountId?: string | Placeholder | undefined;
  isRead?: boolean | Placeholder | undefined;
  after?: { receivedAt: string | Placeholder; id: string | Placeholder };
  includeArchived: boolean;
  /** The search box's text (searchFilter), read per table: the probe reads an alias. */
  q: string | null;
  /** When the search runs: newer_than: and older_than: count back from it. */
  now: Date;
  /** view=conversations: only each conversation's newest matching row. */
  grouped: boolean;
  /**
   * The inbox's head (issue 37): only unread mail that came back by itself (a snooze ended),
   * latest first, read through emails_user_resurfaced_idx. Shown above the first page.
   */
  head?: boolean;
}

/** At most this many resurfaced rows head the first page. */
const HEAD_ROWS = 20;

/** The list's filters on `t` (the emails table, or an alias of it in the conversation probe). */
type FilteredColumns = Record<
  | "userId"
  | "isTrashed"
  | "isSpam"
  | "isDraft"
  | "inInbox"
  | "bucket"
  | "accountId"
  | "isRead"
  | "search"
  | "snoozedUntil",
  AnyPgColumn
> &
  SearchColumns;

function filters(t: FilteredColumns, p: PageParams): SQL[] {
  const conditions: SQL[] = [
    eq(t.userId, p.userId),
    sql`not ${t.isTrashed}`,
    sql`not ${t.isSpam}`,
    sql`not ${t.isDraft}`,
  ];
  // Snoozed mail is out of the inbox whatever the provider says meanwhile (issue 37): only
  // unsnooze or its wake brings it back. A rare row, so the filter costs the walk nothing.
  if (!p.includeArchived) conditions.push(sql`${t.inInbox}`, sql`${t.snoozedUntil} is null`);
  if (p.bucket !== undefined) conditions.push(eq(t.bucket, p.bucket));
  if (p.accountId !== undefined) conditions.push(eq(t.accountId, p.accountId));
  if (p.isRead !== undefined) conditions.push(eq(t.isRead, p.isRead));
  const search = p.q ? searchFilter(p.q, p.now, t) : null;
  if (search) conditions.push(search.where);
  return conditions;
}

/**
 * Newest first with keyset pagination over (received_at, id): the ORDER BY spells out NULLS LAST
 * so it matches emails_user_received_idx exactly, and the plan is an index scan that stops after
 * limit+1 rows (EXPLAIN checked in email-api.test.ts) instead of sorting the whole mailbox.
 */
function pageSelect(db: Db, p: PageParams) {
  const conditions = filters(emails, p);
  if (p.grouped) {
    // One row per conversation: the newest row that passes the same filters. The probe reads
    // emails_user_conversation_idx, a few entries per row the scan visits.
    const newer = alias(emails, "newer");
    conditions.push(
      sql`not exists (select 1 from "emails" ${newer} where ${and(
        ...filters(newer, p),
        sql`${newer.conversationId} = ${emails.conversationId}`,
        sql`(${newer.receivedAt}, ${newer.id}) > (${emails.receivedAt}, ${emails.id})`,
      )})`,
    );
  }
  if (p.head) conditions.push(sql`${emails.resurfacedAt} is not null`, sql`not ${emails.isRead}`);
  if (p.after) {
    conditions.push(
      sql`(${emails.receivedAt}, ${emails.id}) < (${p.after.receivedAt}::timestamptz, ${p.after.id}::uuid)`,
    );
  }
  return (
    db
      // The account's address and provider come with each row: one statement per page, not two.
      .select({
        ...summaryColumns,
        // The spec's five fields (emails.list_analysis), not the whole stored analysis (summary, key
        // points, security scan: two thirds of a page's bytes), which the reader gets from get().
        aiAnalysis: sql<Record<string, unknown> | null>`${emails.listAnalysis}`.as("ai_analysis"),
        accountEmail: mailAccounts.email,
        accountProvider: mailAccounts.provider,
      })
      .from(emails)
      .innerJoin(mailAccounts, eq(mailAccounts.id, emails.accountId))
      .where(and(...conditions))
      .orderBy(
        ...(p.head
          ? [sql`${emails.resurfacedAt} desc nulls last`]
          : [sql`${emails.receivedAt} desc nulls last`, sql`${emails.id} desc nulls last`]),
      )
      // drizzle's limit() is typed number | Placeholder, but its dialect embeds any SQL object as is.
      .limit(p.limit as number)
  );
}

/** The values a list request binds, in the shape pageSelect and the prepared statements take. */
function bindings(userId: string, query: EmailListQuery) {
  const after = query.cursor ? decodeCursor(query.cursor) : undefined;
  return {
    userId,
    ...(query.bucket ? { bucket: query.bucket } : {}),
    ...(query.accountId ? { accountId: query.accountId } : {}),
    ...(query.unread ? { isRead: query.unread === "false" } : {}),
    ...(after ? { afterAt: after.receivedAt.toISOString(), afterId: after.id } : {}),
  };
}

/** The page query of GET /api/emails with its values bound (exported so a test can EXPLAIN it). */
export function listQuery(db: Db, userId: string, query: EmailListQuery) {
  const b = bindings(userId, query);
  const now = new Date();
  const search = query.q ? searchFilter(query.q, now) : null;
  return pageSelect(db, {
    userId: b.userId,
    limit: query.limit + 1,
    bucket: b.bucket,
    accountId: b.accountId,
    isRead: b.isRead,
    ...(b.afterAt !== undefined && b.afterId !== undefined
      ? { after: { receivedAt: b.afterAt, id: b.afterId } }
      : {}),
    // in:inbox / in:archive say where to look themselves.
    includeArchived: query.includeArchived === "true" || search?.includesArchived === true,
    q: search ? (query.q ?? null) : null,
    now,
    grouped: query.view === "conversations",
  });
}

/** A list row as json_agg spells it: the column names of listQuery's select. */
export interface JsonListRow {
  id: string;
  account_id: string;
  thread_id: string | null;
  conversation_id: string;
  from_name: string;
  from_address: string;
  to_recipients: StoredAddress[];
  cc_recipients: StoredAddress[];
  subject: string;
  snippet: string;
  received_at: string;
  is_read: boolean;
  is_starred: boolean;
  is_flagged: boolean;
  in_inbox: boolean;
  is_trashed: boolean;
  is_spam: boolean;
  bucket: string | null;
  list_unsubscribe: string | null;
  ai_analysis: unknown;
  has_attachments: boolean;
  resurfaced_at: string | null;
  resurface_reason: string | null;
  email: string;
  provider: string;
}

/**
 * The page as ONE json value instead of limit+1 rows of 21 columns. The embedded database's
 * driver copies every field of every row out of WebAssembly memory and parses it on its own, which
 * was the largest cost of a list request (bench/mail/api-load-seeded.ts); one JSON.parse is far cheaper,
 * and node-postgres gains the same way. An aggregate does not promise to keep its input's order,
 * and asking it to (json_agg ... ORDER BY) sorted the wide rows again, a sixth of the query's time
 * on PGlite: newestFirst puts the page back in order here instead, in microseconds.
 */
function asJsonPage(db: Db, select: ReturnType<typeof pageSelect>) {
  const page = select.as("p");
  return db
    .select({ rows: sql<JsonListRow[]>`coalesce(json_agg(${sql.identifier("p")}), '[]'::json)` })
    .from(page);
}

/**
 * The page in the list's order, received_at then id, newest first, as the index gives it.
 * Milliseconds suffice: every writer stores JavaScript Dates (see cursor.ts). PostgreSQL orders
 * uuids by their bytes, which for the lower-case text form is the string order.
 */
export function newestFirst(rows: JsonListRow[]): JsonListRow[] {
  const keyed = rows.map((row) => ({ row, at: Date.parse(row.received_at) }));
  keyed.sort((a, b) => b.at - a.at || (a.row.id < b.row.id ? 1 : a.row.id > b.row.id ? -1 : 0));
  return keyed.map((k) => k.row);
}

/** The row counts a prepared page reads: a page of 25, 50, 100 or 200 and one row more. */
const STATEMENT_LIMITS = [26, 51, 101, 201] as const;

/**
 * The LIMIT a prepared page is written with: the smallest of STATEMENT_LIMITS that holds the
 * page and the row after it (list() slices off any extra rows). The limit is part of the
 * statement's text, not a bound value, because PostgreSQL costs a generic plan with an unknown
 * LIMIT as if it read a tenth of the mailbox (2,245 against 13 at 100,000 emails), so it
 * re-planned the page on every call; planning stats every index file, which on PGlite was 40% of
 * the page's database time. A few sizes keep the number of prepared statements small whatever
 * limits clients send (1-200).
 */
export function statementLimit(limit: number): number {
  return STATEMENT_LIMITS.find((n) => n >= limit + 1) ?? limit + 1;
}

/**
 * One prepared statement per combination of filters and statementLimit, built on first use:
 * building the SQL took a tenth of a list request's time, and with its LIMIT in its text the
 * statement settles on one generic plan after PostgreSQL's five custom ones (pinned by
 * email-lister-plans.test.ts). Searches are built per request: their tsquery differs in shape,
 * not only in values.
 */
function preparedPages(db: Db) {
  const statements = new Map<string, ReturnType<ReturnType<typeof asJsonPage>["prepare"]>>();
  return (query: EmailListQuery, head = false) => {
    const includeArchived = query.includeArchived === "true";
    const grouped = query.view === "conversations";
    const rows = head ? HEAD_ROWS : statementLimit(query.limit);
    const shape = [
      head ? "head" : "",
      grouped ? "conv" : "",
      includeArchived ? "archived" : "",
      query.bucket ? "bucket" : "",
      query.accountId ? "account" : "",
      query.unread ? "read" : "",
      query.cursor ? "after" : "",
      String(rows),
    ].join("_");
    let statement = statements.get(shape);
    if (!statement) {
      const select = pageSelect(db, {
        userId: sql.placeholder("userId"),
        limit: sql.raw(String(rows)),
        ...(query.bucket ? { bucket: sql.placeholder("bucket") } : {}),
        ...(query.accountId ? { accountId: sql.placeholder("accountId") } : {}),
        ...(query.unread ? { isRead: sql.placeholder("isRead") } : {}),
        ...(query.cursor
          ? { after: { receivedAt: sql.placeholder("afterAt"), id: sql.placeholder("afterId") } }
          : {}),
        includeArchived,
        q: null,
        now: new Date(0),
        grouped,
        head,
      });
      statement = asJsonPage(db, select).prepare(`email_page${shape}`);
      statements.set(shape, statement);
    }
    return statement;
  };
}

function presentJsonRow(row: JsonListRow): Email {
  return presentEmail(
    {
      id: row.id,
      accountId: row.account_id,
      threadId: row.thread_id,
      conversationId: row.conversation_id,
      fromName: row.from_name,
      fromAddress: row.from_address,
      toRecipients: row.to_recipients,
      ccRecipients: row.cc_recipients,
      subject: row.subject,
      snippet: row.snippet,
      receivedAt: new Date(row.received_at),
      isRead: row.is_read,
      isStarred: row.is_starred,
      isFlagged: row.is_flagged,
      inInbox: row.in_inbox,
      isTrashed: row.is_trashed,
      isSpam: row.is_spam,
      bucket: row.bucket,
      listUnsubscribe: row.list_unsubscribe,
      aiAnalysis: row.ai_analysis as EmailSummaryRow["aiAnalysis"],
      hasAttachments: row.has_attachments,
      resurfacedAt: row.resurfaced_at ? new Date(row.resurfaced_at) : null,
      resurfaceReason: row.resurface_reason,
    },
    { email: row.email, provider: row.provider as MailProvider },
  );
}

/** The dashboard list and the reader. */
export function createEmailLister(db: Db, attachmentLinks?: AttachmentLinks) {
  // An opened email and its account in one prepared statement: every open and every action's
  // answer reads it, so it is neither built nor planned per request (issue 39).
  const openOne = db
    .select({
      ...summaryColumns,
      bodyHtml: emails.bodyHtml,
      bodyText: emails.bodyText,
      writePendingAt: emails.writePendingAt,
      attachments: emails.attachments,
      accountEmail: sql<string | null>`${mailAccounts.email}`,
      accountProvider: sql<string | null>`${mailAccounts.provider}`,
    })
    .from(emails)
    .leftJoin(mailAccounts, eq(mailAccounts.id, emails.accountId))
    .where(and(eq(emails.userId, sql.placeholder("userId")), eq(emails.id, sql.placeholder("id"))))
    .prepare("email_open_one");
  const prepared = preparedPages(db);
  const summaries = createConversationSummaries(db);
  /** Resurfaced unread rows of the inbox's head, latest resurfaced first. */
  async function headRows(query: EmailListQuery, userId: string): Promise<JsonListRow[]> {
    const [result] = await prepared(query, true).execute(bindings(userId, { ...query, cursor: undefined }));
    const rows = result?.rows ?? [];
    return rows.sort((a, b) => Date.parse(b.resurfaced_at ?? "") - Date.parse(a.resurfaced_at ?? ""));
  }
  return {
    /**
     * view=messages: one row per message. view=conversations: each conversation's newest matching
     * row with the conversation's summary (ConversationListResponse).
     */
    async list(userId: string, query: EmailListQuery): Promise<EmailListResponse | ConversationListResponse> {
      const [result] = query.q
        ? await asJsonPage(db, listQuery(db, userId, query))
        : await prepared(query).execute(bindings(userId, query));
      const rows = newestFirst(result?.rows ?? []);
      // The inbox's first page starts with unread mail that came back by itself (a snooze ended),
      // latest first, then the newest-first walk without those rows; later pages are the walk's.
      const headed = !query.q && !query.cursor && query.includeArchived !== "true";
      const head = headed ? await headRows(query, userId) : [];
      const inHead = new Set(head.map((row) => row.id));
      const walk = rows.filter((row) => !inHead.has(row.id));
      const fromWalk = walk.slice(0, Math.max(0, query.limit - head.length));
      const page = [...head.slice(0, query.limit), ...fromWalk].map(presentJsonRow);
      const last = fromWalk.at(-1);
      const nextCursor =
        walk.length > fromWalk.length && last
          ? encodeCursor({ receivedAt: new Date(last.received_at), id: last.id })
          : null;
      if (query.view !== "conversations") return { emails: page, nextCursor };
      const found = await summaries(
        userId,
        page.map((email) => email.conversationId),
      );
      return {
        emails: page.map((email) => ({
          ...email,
          // A conversation emptied between the two statements still shows as its one row.
          conversation: found.get(email.conversationId) ?? {
            id: email.conversationId,
            count: 1,
            participants: email.fromName || email.fromAddress,
            unread: !email.isRead,
            hasAttachments: false,
          },
        })),
        nextCursor,
      };
    },

    /** One email with its bodies. The HTML is the sender's original: the client sanitizes it. */
    async get(userId: string, id: string): Promise<Email> {
      const [row] = await openOne.execute({ userId, id });
      if (!row) throw new DomainError("not_found", "No such email.");
      const { accountEmail, accountProvider, ...email } = row;
      const account =
        accountEmail === null
          ? UNKNOWN_ACCOUNT
          : { email: accountEmail, provider: (accountProvider ?? "gmail") as MailProvider };
      const attachments = attachmentLinks
        ? presentStoredAttachments(row.attachments, { userId, emailId: row.id }, attachmentLinks)
        : [];
      return presentEmail(email, account, attachments);
    },
  };
}

export type EmailLister = ReturnType<typeof createEmailLister>;
