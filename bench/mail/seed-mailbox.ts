import type { Database } from "../../server/db/client.ts";
import { createAccount, createUser } from "../../server/test/factories.ts";

/**
 * One user with a Gmail and an Outlook account and `count` emails written straight in SQL: 10%
 * archived, a third unread, the six buckets, and a few words to search for.
 */
export async function seedBigMailbox(database: Database, count: number): Promise<{ userId: string }> {
  const user = await createUser(database.db);
  const gmail = await createAccount(database.db, user.id, { provider: "gmail" });
  const outlook = await createAccount(database.db, user.id, { provider: "outlook" });
  await database.executeSql(
    `insert into emails (user_id, account_id, provider_id, from_name, from_address, subject, snippet, body_text,
       received_at, is_read, in_inbox, bucket)
     select $1, case when i % 2 = 0 then $2::uuid else $3::uuid end, 'bench-' || i,
       'Sender ' || (i % 500), 's' || (i % 500) || '@example.com',
       'Subject ' || i || ' about ' || (array['budget','travel','invoice','party','release'])[1 + i % 5],
       'snippet ' || i, 'body words ' || md5(i::text),
       now() - (i || ' minutes')::interval, i % 3 <> 0, i % 10 <> 0,
       (array['personal','work','newsletters','promotions','social','other'])[1 + i % 6]
     from generate_series(1, ${Math.floor(count)}) i`,
    [user.id, gmail.id, outlook.id],
  );
  await database.executeSql("vacuum analyze emails");
  return { userId: user.id };
}
