import { sql } from "drizzle-orm";
import type { Contact, ContactsQuery } from "../../../contract/contacts.ts";
import type { Db } from "../../db/client.ts";

/** A month: a contact last used a month ago weighs half as much as one used today. */
const DECAY_SECONDS = 30 * 24 * 3600;
/** Sending to someone says more than hearing from them (Gmail weighs it the same way). */
const SENT_WEIGHT = 3;

/** LIKE's own characters in what the person typed are matched literally. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

/** Letters and digits only, words separated by one space: how names are compared word by word. */
export function nameWords(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/**
 * The person's contacts whose address, name, or any word of the name starts with `q`, ranked by
 * use: (sent * 3 + received), decayed by the time since last use. The person's own addresses
 * (every linked account) are never suggested. One owner-scoped scan of the person's contacts by
 * the primary key (decision 0068: a few thousand rows, measured in bench/mail/contacts-suggest.ts).
 */
export async function suggestContacts(
  db: Db,
  userId: string,
  query: ContactsQuery,
  now: Date,
): Promise<Contact[]> {
  const q = query.q.toLowerCase();
  const words = nameWords(q);
  const addressPrefix = `${escapeLike(q)}%`;
  // No words (q was only punctuation): the address prefix alone decides.
  const namePrefix = words === "" ? null : `% ${words}%`;
  const result = await db.execute(sql`
    select c.address, c.name
    from contacts c
    where c.user_id = ${userId}
      and (${q} = '' or c.address like ${addressPrefix}
           or (${namePrefix}::text is not null
               and c.name_words like ${namePrefix}))
      and c.address not in (select lower(a.email) from mail_accounts a where a.user_id = ${userId})
    order by (c.sent_count * ${SENT_WEIGHT} + c.received_count)
             / (1 + greatest(0, extract(epoch from (${now.toISOString()}::timestamptz - c.last_used_at))) / ${DECAY_SECONDS}) desc,
             c.address
    limit ${query.limit}`);
  return (result as unknown as { rows: Contact[] }).rows.map((r) => ({ address: r.address, name: r.name }));
}
