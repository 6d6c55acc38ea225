import { and, eq, getTableColumns, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { emails } from "../db/schema.ts";
import type { ProviderMessage } from "../providers/mail-provider.ts";
import { type EmailInsert, toEmailRow } from "./message-row.ts";
import type { SyncAccount } from "./types.ts";

// Columns an upsert must never overwrite: identity, ownership, history, and what other features
// (AI analysis, read-today stat) maintain.
const KEEP_ON_CONFLICT = new Set([
  "id",
  "userId",
  "accountId",
  "providerId",
  "createdAt",
  "aiAnalysis",
  "readAt",
  "search",
  "localChangeAt",
  "inboxZeroProcessedAt",
]);

const columns = getTableColumns(emails);
const columnName = new Map(Object.entries(columns).map(([key, column]) => [key, column.name]));
const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * The statement text per set of columns (sync's rows, or whole rows copied by the bench), in two
 * pieces that the bound values go after: `insert` takes the JSON rows, `onConflict` (upserts
 * only) the time the rows were fetched.
 */
const statements = new Map<string, { insert: string; onConflict: string }>();

function statementFor(keys: readonly string[]): { insert: string; onConflict: string } {
  const cacheKey = keys.join(",");
  const cached = statements.get(cacheKey);
  if (cached) return cached;
  const names = new Map(
    keys.map((key) => {
      const name = columnName.get(key);
      if (!name) throw new Error(`emails has no column ${key}`);
      return [key, quoted(name)];
    }),
  );
  const list = [...names.values()].join(", ");
  const set = [...names]
    .filter(([key]) => !KEEP_ON_CONFLICT.has(key))
    .map(([, name]) => `${name} = excluded.${name}`);
  // Read now when the provider says it just became read; unknown (null) for mail synced as read.
  set.push(
    `"read_at" = case when excluded."is_read" and not "emails"."is_read" then now() when excluded."is_read" then "emails"."read_at" else null end`,
  );
  const statement = {
    insert: `insert into "emails" (${list}) select ${list} from json_populate_recordset(null::"emails", `,
    // Data fetched before the user's last change here is older than that change: leave the row.
    onConflict: `) on conflict ("account_id", "provider_id") do update set ${set.join(", ")} where "emails"."local_change_at" is null or "emails"."local_change_at" < `,
  };
  statements.set(cacheKey, statement);
  return statement;
}

/**
 * Inserts email rows with ONE bound value: the rows as a JSON array, which PostgreSQL unpacks
 * with json_populate_recordset. A page of 500 rows as 15,000 bound values cost more to build in
 * drizzle and to bind than to store (bench/sync/throughput.ts); one JSON.stringify is native.
 * Keys are the schema's property names; every row must have the same keys as the first.
 * `upsert` updates rows that exist (account_id, provider_id), keeping KEEP_ON_CONFLICT.
 */
export async function insertEmailRows(
  tx: Db,
  rows: ReadonlyArray<Partial<EmailInsert>>,
  opts: { upsert: false } | { upsert: true; fetchedAt: Date },
): Promise<number> {
  const first = rows[0];
  if (!first) return 0;
  const keys = Object.keys(first).filter((key) => (first as Record<string, unknown>)[key] !== undefined);
  const statement = statementFor(keys);
  const payload = rows.map((row) => {
    const out: Record<string, unknown> = {};
    for (const key of keys) out[columnName.get(key) ?? key] = (row as Record<string, unknown>)[key];
    return out;
  });
  const insert = sql`${sql.raw(statement.insert)}${JSON.stringify(payload)}::json`;
  const result = await tx.execute(
    opts.upsert
      ? sql`${insert}${sql.raw(statement.onConflict)}${opts.fetchedAt.toISOString()}::timestamptz`
      : sql`${insert})`,
  );
  return (result as { rowCount?: number | null }).rowCount ?? rows.length;
}

/** The last version of each provider id wins: ON CONFLICT cannot touch one row twice in a statement. */
export function dedupeById(messages: readonly ProviderMessage[]): ProviderMessage[] {
  const byId = new Map<string, ProviderMessage>();
  for (const m of messages) byId.set(m.providerId, m);
  return [...byId.values()];
}

/**
 * Writes one page of messages: rows already stored through INSERT ... ON CONFLICT (account_id,
 * provider_id) DO UPDATE, new ones through insertFresh. Buckets are computed here, with the AI
 * hints of rows that already have an analysis.
 * `fetchedAt`: when the request that returned these messages was sent. A row the user changed
 * after that keeps its state (see emails.local_change_at) but is still marked seen by this pass.
 */
export async function upsertPage(
  tx: Db,
  account: SyncAccount,
  messages: readonly ProviderMessage[],
  generation: number,
  fetchedAt: Date,
): Promise<number> {
  const unique = dedupeById(messages);
  if (unique.length === 0) return 0;
  const inPage = and(
    eq(emails.accountId, account.id),
    inArray(
      emails.providerId,
      unique.map((m) => m.providerId),
    ),
  );
  const existing = await tx
    .select({ providerId: emails.providerId, aiAnalysis: emails.aiAnalysis })
    .from(emails)
    .where(inPage);
  // Stored rows by provider id, with their analysis (null when not analysed yet).
  const stored = new Map(existing.map((r) => [r.providerId, r.aiAnalysis]));
  const now = new Date();
  const fresh: EmailInsert[] = [];
  const known: EmailInsert[] = [];
  for (const m of unique) {
    const row = toEmailRow(account, m, { generation, aiAnalysis: stored.get(m.providerId), now });
    (stored.has(m.providerId) ? known : fresh).push(row);
  }
  const upsert = { upsert: true, fetchedAt } as const;
  let written = known.length > 0 ? await insertEmailRows(tx, known, upsert) : 0;
  if (fresh.length > 0) written += await insertFresh(tx, fresh, upsert);
  if (written < unique.length) {
    // Rows left alone for a newer local change were still seen by this pass: finishPass must not
    // take them for mail deleted at the provider.
    await tx
      .update(emails)
      .set({ syncGeneration: sql`greatest(${emails.syncGeneration}, ${generation})` })
      .where(inPage);
  }
  return unique.length;
}

/**
 * Rows that were not there when the page was read go in with a plain INSERT: without ON
 * CONFLICT's check of the unique index per row it is about 15% cheaper (an initial sync is all
 * new rows). Another writer may store one of them meanwhile (a sent message saved by the send
 * call); then the insert is undone to its savepoint and the rows go through the upsert instead.
 */
export async function insertFresh(
  tx: Db,
  rows: readonly EmailInsert[],
  upsert: { upsert: true; fetchedAt: Date },
): Promise<number> {
  try {
    return await tx.transaction((savepoint) => insertEmailRows(savepoint, rows, { upsert: false }));
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    return insertEmailRows(tx, rows, upsert);
  }
}

/**
 * Deletes rows whose messages were deleted at the provider or left the synced scope, except rows
 * whose write-back awaits settling (emails.write_pending_at): a Graph move we wrote back late
 * makes the inbox delta report the old id gone, yet the mail lives on under a new id. The write
 * settler reads each of those from the provider and re-keys, stores or removes it (decision 0019).
 */
export async function removeByProviderIds(
  tx: Db,
  accountId: string,
  providerIds: readonly string[],
): Promise<number> {
  if (providerIds.length === 0) return 0;
  const rows = await tx
    .delete(emails)
    .where(
      and(
        eq(emails.accountId, accountId),
        inArray(emails.providerId, [...providerIds]),
        isNull(emails.writePendingAt),
      ),
    )
    .returning({ id: emails.id });
  return rows.length;
}
