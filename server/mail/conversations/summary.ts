import { sql } from "drizzle-orm";
import type { ConversationSummary } from "../../../contract/conversations.ts";
import type { Db } from "../../db/client.ts";

/** One sender of a conversation, in the order they first wrote: [name, address, is the person]. */
export type Sender = [name: string, address: string, me: boolean];

interface SummaryRow {
  id: string;
  count: number;
  unread: boolean;
  att: boolean;
  senders: Sender[];
}

/** Names a row shows before it elides the middle ("Dana .. Bo, me"). */
const MAX_NAMES = 3;
/** A name longer than this is cut: a sender writes it, a row has room for a few words. */
const MAX_NAME_LENGTH = 40;

/** "Dana" of "Dana Ruiz", "Ruiz, Dana" or "dana.ruiz@example.org" (its local part). */
export function firstName(name: string, address: string): string {
  // Trailing quotes cut by hand: an unanchored `["']+$` retries at every quote (quadratic).
  let text = name.trim().replace(/^["']+/, "");
  while (text.endsWith('"') || text.endsWith("'")) text = text.slice(0, -1);
  if (text.includes("@") || text === "") text = (address.split("@")[0] ?? "").trim();
  const comma = text.indexOf(",");
  if (comma > 0) text = text.slice(comma + 1).trim() || text.slice(0, comma);
  const first = text.split(/\s+/)[0] ?? "";
  return [...first].slice(0, MAX_NAME_LENGTH).join("") || "(unknown)";
}

/**
 * "Dana, me (3)": the senders' first names in the order they first wrote, the person's own
 * addresses as "me", each once; past three names the middle ones become "..", as Gmail does.
 */
export function formatParticipants(senders: readonly Sender[], count: number): string {
  const names: string[] = [];
  for (const [name, address, me] of senders) {
    const shown = me ? "me" : firstName(name, address);
    if (!names.includes(shown)) names.push(shown);
  }
  const head = names[0] ?? "(unknown)";
  const listed =
    names.length > MAX_NAMES ? `${head} .. ${names.slice(-(MAX_NAMES - 1)).join(", ")}` : names.join(", ");
  return count > 1 ? `${listed || head} (${count})` : listed || head;
}

/**
 * The summaries of a page's conversations in one statement: per conversation and sender, then
 * per conversation, over its stored messages (sent and archived ones included; trash, spam and
 * drafts not). A sender is the person when the message is sent mail or comes from one of their
 * connected addresses. The probe per conversation reads emails_user_conversation_idx.
 */
export function createConversationSummaries(db: Db) {
  const statement = db
    .select({
      rows: sql<SummaryRow[]>`coalesce(json_agg(c), '[]'::json)`,
    })
    .from(
      sql`(select s.conversation_id as id, sum(s.n)::int as count, bool_or(s.unread) as unread,
            bool_or(s.att) as att,
            json_agg(json_build_array(s.name, s.address, s.me) order by s.first) as senders
          from (
            select e.conversation_id, lower(e.from_address) as address, max(e.from_name) as name,
              bool_or(e.is_sent) or lower(e.from_address) in (
                select lower(a.email) from mail_accounts a where a.user_id = ${sql.placeholder("userId")}
              ) as me,
              min(e.received_at) as first, count(*) as n, bool_or(not e.is_read) as unread,
              bool_or(e.has_attachments) as att
            from emails e
            where e.user_id = ${sql.placeholder("userId")}
              and e.conversation_id = any(${sql.placeholder("ids")}::uuid[])
              and not e.is_trashed and not e.is_spam and not e.is_draft
            group by e.conversation_id, lower(e.from_address)
          ) s
          group by s.conversation_id) c`,
    )
    .prepare("conversation_summaries");

  return async (userId: string, ids: readonly string[]): Promise<Map<string, ConversationSummary>> => {
    const out = new Map<string, ConversationSummary>();
    if (ids.length === 0) return out;
    const [result] = await statement.execute({ userId, ids: [...new Set(ids)] });
    for (const row of result?.rows ?? []) {
      out.set(row.id, {
        id: row.id,
        count: row.count,
        participants: formatParticipants(row.senders, row.count),
        unread: row.unread,
        hasAttachments: row.att,
      });
    }
    return out;
  };
}
