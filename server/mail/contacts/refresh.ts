import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import type { StoredAddress } from "../../db/schema.ts";

/** Longest address and name kept (RFC 5321's path limit; a name longer than this is noise). */
const ADDRESS_MAX = 320;
const NAME_MAX = 200;

/**
 * Rebuilds one person's contact counts from their stored mail in one statement: received from
 * (the From of mail not sent by them, drafts and spam left out) and sent to (To and Cc of their
 * sent mail), across all their accounts. Counting from `emails` rather than adding per event
 * makes it idempotent: a message synced twice, re-keyed, or seen by two workers counts once
 * (decision 0068). Rows whose counts did not change are not rewritten. Counts of a send through
 * Mailwise (recordSent) are replaced here once the sent message itself is synced.
 * The same query backfills every person in migration 0028.
 */
export async function refreshContacts(db: Db, userId: string): Promise<void> {
  await db.execute(sql`
    insert into contacts as c (user_id, address, name, sent_count, received_count, last_used_at)
    select ${userId}::uuid, address, (array_agg(name order by (name = ''), at desc))[1],
           sum(sent), sum(received), max(at)
    from (
      select lower(e.from_address) as address, left(e.from_name, ${NAME_MAX}) as name,
             0 as sent, 1 as received, e.received_at as at
      from emails e
      where e.user_id = ${userId} and not e.is_sent and not e.is_draft and not e.is_spam
        and e.from_address like '%@%' and length(e.from_address) <= ${ADDRESS_MAX}
      union all
      select lower(r->>'address'), left(coalesce(r->>'name', ''), ${NAME_MAX}), 1, 0, e.received_at
      from emails e cross join lateral jsonb_array_elements(e.to_recipients || e.cc_recipients) r
      where e.user_id = ${userId} and e.is_sent and not e.is_draft and jsonb_typeof(r) = 'object'
        and r->>'address' like '%@%' and length(r->>'address') <= ${ADDRESS_MAX}
    ) used
    group by address
    on conflict (user_id, address) do update set
      name = case when excluded.name <> '' then excluded.name else c.name end,
      sent_count = excluded.sent_count,
      received_count = excluded.received_count,
      last_used_at = greatest(c.last_used_at, excluded.last_used_at)
    where (c.sent_count, c.received_count, c.last_used_at) is distinct from
          (excluded.sent_count, excluded.received_count, greatest(c.last_used_at, excluded.last_used_at))
       or (excluded.name <> '' and excluded.name <> c.name)`);
}

/**
 * A send through Mailwise counts at once (the sent copy arrives with a later sync): each
 * recipient's sent count goes up by one and it becomes the most recently used.
 */
export async function recordSent(
  db: Db,
  userId: string,
  recipients: StoredAddress[],
  at: Date,
): Promise<void> {
  const unique = new Map<string, string>();
  for (const r of recipients) {
    const address = r.address.toLowerCase();
    if (address.length <= ADDRESS_MAX && !unique.has(address)) unique.set(address, r.name.slice(0, NAME_MAX));
  }
  if (unique.size === 0) return;
  const rows = JSON.stringify([...unique].map(([address, name]) => ({ address, name })));
  await db.execute(sql`
    insert into contacts as c (user_id, address, name, sent_count, received_count, last_used_at)
    select ${userId}::uuid, r.address, r.name, 1, 0, ${at.toISOString()}::timestamptz
    from jsonb_to_recordset(${rows}::jsonb) as r(address text, name text)
    on conflict (user_id, address) do update set
      sent_count = c.sent_count + 1,
      name = case when c.name = '' then excluded.name else c.name end,
      last_used_at = greatest(c.last_used_at, excluded.last_used_at)`);
}
