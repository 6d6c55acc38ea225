import { and, eq, gt, inArray, isNotNull, ne } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { emails } from "../db/schema.ts";
import type { MailProviderClient, ProviderMessage } from "../providers/mail-provider.ts";

/**
 * Graph gives a message a new id when it moves folders. Its inbox delta reports the old id as
 * removed when mail leaves the inbox, but mail coming back (unarchive) arrives under a new id
 * while the old row (listed as recent archived mail) is never reported. So an upserted message
 * whose Message-ID matches a row under another id is a move when that old id is reported gone or
 * the provider no longer knows it; then the row is re-keyed (keeping its uuid, AI analysis and
 * unsubscribe links) instead of doubled. A sent copy and its received copy share a Message-ID yet
 * both exist, which is why the provider is asked. Returns old id -> new id.
 */
export async function findMoves(
  db: Db,
  client: Pick<MailProviderClient, "getMessage">,
  accountId: string,
  messages: readonly ProviderMessage[],
  goneIds: ReadonlySet<string>,
): Promise<Map<string, string>> {
  const byMessageId = new Map<string, string>();
  for (const m of messages) {
    if (m.internetMessageId && !goneIds.has(m.providerId)) byMessageId.set(m.internetMessageId, m.providerId);
  }
  const moves = new Map<string, string>();
  if (byMessageId.size === 0) return moves;
  const incoming = new Set(messages.map((m) => m.providerId));
  const candidates = await db
    .select({ providerId: emails.providerId, internetMessageId: emails.internetMessageId })
    .from(emails)
    .where(and(eq(emails.accountId, accountId), inArray(emails.internetMessageId, [...byMessageId.keys()])));
  const targets = new Set<string>();
  for (const row of candidates) {
    const next = row.internetMessageId ? byMessageId.get(row.internetMessageId) : undefined;
    if (!next || row.providerId === next || incoming.has(row.providerId) || targets.has(next)) continue;
    if (!goneIds.has(row.providerId) && (await client.getMessage(row.providerId)) !== null) continue;
    moves.set(row.providerId, next);
    targets.add(next);
  }
  return moves;
}

/**
 * Where a move took the message of a row whose id the provider no longer finds (Graph gives a
 * moved message a new id; a move of ours whose answer never came leaves us the old one), or null
 * when no folder holds its Message-ID. Of the copies sharing it, one of the row's kind (never a
 * draft; a received copy is not the sent one) that no other row holds is taken; when every such
 * copy is held, the held row is this message stored before we knew its new id, and re-keying
 * onto it drops that copy (rekeyIds).
 */
export async function findMovedCopy(
  db: Db,
  client: Pick<MailProviderClient, "findMoved">,
  accountId: string,
  row: { id: string; providerId: string; internetMessageId: string | null; isSent: boolean },
): Promise<ProviderMessage | null> {
  if (!row.internetMessageId) return null;
  const copies = (await client.findMoved(row.internetMessageId)).filter(
    (m) => m.providerId !== row.providerId && !m.isDraft && m.isSent === row.isSent,
  );
  const [first] = copies;
  if (!first || copies.length === 1) return first ?? null;
  const held = await db
    .select({ providerId: emails.providerId })
    .from(emails)
    .where(
      and(
        eq(emails.accountId, accountId),
        ne(emails.id, row.id),
        inArray(
          emails.providerId,
          copies.map((m) => m.providerId),
        ),
      ),
    );
  const heldIds = new Set(held.map((h) => h.providerId));
  return copies.find((m) => !heldIds.has(m.providerId)) ?? first;
}

/** How long after the person's last change here a message leaving the inbox is looked for. */
export const LATE_MOVE_WINDOW_MS = 10 * 60_000;

/**
 * Rows the change feed reports gone that the person changed here lately (since `since`): a move
 * of ours that Graph applied after its write-back timed out, and even after the settle read the
 * message still in the inbox, shows up only as the old id leaving the inbox. Those found
 * elsewhere by Message-ID are moves to re-key, not deletions; mail moved in Outlook itself and
 * never touched here still leaves our store. Returns old id -> the message under its new id.
 */
export async function findLateMoves(
  db: Db,
  client: Pick<MailProviderClient, "findMoved">,
  accountId: string,
  goneIds: ReadonlySet<string>,
  since: Date,
): Promise<Map<string, ProviderMessage>> {
  const found = new Map<string, ProviderMessage>();
  if (goneIds.size === 0) return found;
  const rows = await db
    .select({
      id: emails.id,
      providerId: emails.providerId,
      internetMessageId: emails.internetMessageId,
      isSent: emails.isSent,
    })
    .from(emails)
    .where(
      and(
        eq(emails.accountId, accountId),
        inArray(emails.providerId, [...goneIds]),
        isNotNull(emails.internetMessageId),
        gt(emails.localChangeAt, since),
      ),
    );
  for (const row of rows) {
    const copy = await findMovedCopy(db, client, accountId, row);
    if (copy) found.set(row.providerId, copy);
  }
  return found;
}

/**
 * Renames rows old id -> new id after a Graph move: our own archive/trash/unarchive (answered
 * with the new ids, or found later by the write settler when the answer never came) or one sync
 * inferred (findMoves). The one re-key of the app, so every path keeps the same row. When a row
 * with the new id exists already, a writer stored the moved message before we knew its id: that
 * copy goes and the re-keyed row stays, with the uuid the person's screens hold, its AI analysis
 * and unsubscribe links.
 */
export async function rekeyIds(
  tx: Db,
  accountId: string,
  moves: ReadonlyMap<string, string>,
): Promise<number> {
  const pairs = [...moves].filter(([from, to]) => from !== to);
  if (pairs.length === 0) return 0;
  const taken = new Set(
    (
      await tx
        .select({ providerId: emails.providerId })
        .from(emails)
        .where(
          and(
            eq(emails.accountId, accountId),
            inArray(
              emails.providerId,
              pairs.map(([, to]) => to),
            ),
          ),
        )
    ).map((r) => r.providerId),
  );
  let moved = 0;
  for (const [from, to] of pairs) {
    const where = and(eq(emails.accountId, accountId), eq(emails.providerId, from));
    if (taken.has(to)) {
      const [source] = await tx.select({ id: emails.id }).from(emails).where(where);
      // No row under the old id (re-keyed or removed meanwhile): the copy is the only row left.
      if (!source) continue;
      await tx.delete(emails).where(and(eq(emails.accountId, accountId), eq(emails.providerId, to)));
    }
    const rows = await tx
      .update(emails)
      .set({ providerId: to, updatedAt: new Date() })
      .where(where)
      .returning({ id: emails.id });
    moved += rows.length;
    if (rows.length > 0) taken.add(to);
  }
  return moved;
}
