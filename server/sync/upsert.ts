import { and, eq, getTableColumns, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { emails } from "../db/schema.ts";
import type { ProviderMessage } from "../providers/mail-provider.ts";
import { toEmailRow } from "./message-row.ts";
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
]);

const columns = getTableColumns(emails);
const updateOnConflict: Record<string, unknown> = Object.fromEntries(
  Object.entries(columns)
    .filter(([key, column]) => !KEEP_ON_CONFLICT.has(key) && !column.generated)
    .map(([key, column]) => [key, sql.raw(`excluded."${column.name}"`)]),
);
// Read now when the provider says it just became read; unknown (null) for mail synced as read.
updateOnConflict.readAt = sql`case when excluded.is_read and not ${emails.isRead} then now() when excluded.is_read then ${emails.readAt} else null end`;

/** The last version of each provider id wins: ON CONFLICT cannot touch one row twice in a statement. */
export function dedupeById(messages: readonly ProviderMessage[]): ProviderMessage[] {
  const byId = new Map<string, ProviderMessage>();
  for (const m of messages) byId.set(m.providerId, m);
  return [...byId.values()];
}

/**
 * Writes one page of messages with a single INSERT ... ON CONFLICT (account_id, provider_id) DO
 * UPDATE. Buckets are computed here, with the AI hints of rows that already have an analysis.
 */
export async function upsertPage(
  tx: Db,
  account: SyncAccount,
  messages: readonly ProviderMessage[],
  generation: number,
): Promise<number> {
  const unique = dedupeById(messages);
  if (unique.length === 0) return 0;
  const analysed = await tx
    .select({ providerId: emails.providerId, aiAnalysis: emails.aiAnalysis })
    .from(emails)
    .where(
      and(
        eq(emails.accountId, account.id),
        inArray(
          emails.providerId,
          unique.map((m) => m.providerId),
        ),
        sql`${emails.aiAnalysis} is not null`,
      ),
    );
  const analysis = new Map(analysed.map((r) => [r.providerId, r.aiAnalysis]));
  const now = new Date();
  const rows = unique.map((m) =>
    toEmailRow(account, m, { generation, aiAnalysis: analysis.get(m.providerId), now }),
  );
  await tx
    .insert(emails)
    .values(rows)
    .onConflictDoUpdate({ target: [emails.accountId, emails.providerId], set: updateOnConflict });
  return rows.length;
}

/** Deletes rows whose messages were deleted at the provider or left the synced scope. */
export async function removeByProviderIds(
  tx: Db,
  accountId: string,
  providerIds: readonly string[],
): Promise<number> {
  if (providerIds.length === 0) return 0;
  const rows = await tx
    .delete(emails)
    .where(and(eq(emails.accountId, accountId), inArray(emails.providerId, [...providerIds])))
    .returning({ id: emails.id });
  return rows.length;
}
