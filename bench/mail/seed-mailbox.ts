import type { Database } from "../../server/db/client.ts";
import { createAccount, createUser } from "../../server/test/factories.ts";

/**
 * One user with a Gmail and an Outlook account and `count` emails written straight in SQL: 10%
 * archived, a third unread, the six buckets, and a few words to search for. Rows are as wide as
 * synced and analysed mail: a recipient or two, a snippet of Gmail's length, List-Unsubscribe on
 * newsletters, and a stored analysis shaped like the local analyzer's (about 900 bytes, the median
 * on the SpamAssassin corpus is 750), because Mailwise analyses every email it syncs.
 */
export async function seedBigMailbox(database: Database, count: number): Promise<{ userId: string }> {
  const user = await createUser(database.db);
  const gmail = await createAccount(database.db, user.id, { provider: "gmail" });
  const outlook = await createAccount(database.db, user.id, { provider: "outlook" });
  await database.executeSql(
    `insert into emails (user_id, account_id, provider_id, from_name, from_address, to_recipients, cc_recipients,
       subject, snippet, body_text, received_at, is_read, in_inbox, bucket, list_unsubscribe, ai_analysis)
     select $1, case when i % 2 = 0 then $2::uuid else $3::uuid end, 'bench-' || i,
       'Sender ' || (i % 500), 's' || (i % 500) || '@example.com',
       jsonb_build_array(jsonb_build_object('name', 'Alex Morgan', 'address', 'alex.morgan@gmail.com')),
       case when i % 4 = 0
         then jsonb_build_array(jsonb_build_object('name', 'Team ' || (i % 7), 'address', 'team' || (i % 7) || '@example.com'))
         else '[]'::jsonb end,
       'Subject ' || i || ' about ' || (array['budget','travel','invoice','party','release'])[1 + i % 5],
       'snippet ' || i || ' ' || repeat(md5(i::text) || ' ', 5),
       'body words ' || md5(i::text),
       now() - (i || ' minutes')::interval, i % 3 <> 0, i % 10 <> 0,
       (array['personal','work','newsletters','promotions','social','other'])[1 + i % 6],
       case when i % 6 = 2 then '<https://lists.example.com/u/' || md5(i::text) || '>' end,
       jsonb_build_object(
         'urgency', (array['high','medium','low'])[1 + i % 3],
         'sentiment', (array['positive','neutral','negative'])[1 + i % 3],
         'summary', 'Sender ' || (i % 500) || ' writes about ' || repeat(md5(i::text) || ' ', 6),
         'category', (array['personal','work','newsletter','promotions','social','other'])[1 + i % 6],
         'importance', i % 11,
         'keyPoints', jsonb_build_array('Deadline: Friday ' || md5((i + 1)::text), 'Point ' || md5((i + 2)::text),
           'Point ' || md5((i + 3)::text)),
         'suggestedActions', jsonb_build_array('Reply to confirm', 'Archive this email'),
         'responseTime', 'Within 24 hours',
         'needsReply', i % 5 = 0,
         'newMemories', jsonb_build_array('s' || (i % 500) || '@example.com writes about ' || md5(i::text)),
         'engine', 'local',
         'version', 'v3+local-1.0.0',
         'security', jsonb_build_object('verdict', 'safe', 'score', 0, 'reasons', '[]'::jsonb,
           'authentication', jsonb_build_object('spf', 'pass', 'dkim', 'pass', 'dmarc', 'pass')),
         'bucketCategory', (array['personal','work','newsletters','promotions','social','other'])[1 + i % 6],
         'analysedAt', now())
     from generate_series(1, ${Math.floor(count)}) i`,
    [user.id, gmail.id, outlook.id],
  );
  await database.executeSql("vacuum analyze emails");
  return { userId: user.id };
}
