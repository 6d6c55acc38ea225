/**
 * The analysis batch's count of mail sent to its senders (memory-service senderSignals) on a
 * 100,000-email mailbox, with and without the partial index on sent mail (migration 0019):
 * EXPLAIN ANALYZE of the statement a batch of 200 runs.
 *   npx tsx bench/ai/sent-count-plan.ts
 */
import { openTestDatabase } from "../../server/test/databases.ts";
import { seedBigMailbox } from "../mail/seed-mailbox.ts";

const COUNT = Number(process.env.BENCH_EMAILS ?? 100_000);
const t = await openTestDatabase("pglite");
try {
  const { userId } = await seedBigMailbox(t.database, COUNT);
  // A few percent of a real mailbox is the person's own sent mail.
  await t.database.executeSql(
    "update emails set is_sent = true where user_id = $1 and abs(hashtext(id::text)) % 25 = 0",
    [userId],
  );
  await t.database.executeSql("analyze emails");
  const senders = (
    await t.database.executeSql(
      "select distinct lower(from_address) as a from emails where user_id = $1 limit 150",
      [userId],
    )
  ).rows.map((r) => (r as { a: string }).a);
  const statement = `select lower(r->>'address') as address, count(*)::int as n
    from emails cross join lateral jsonb_array_elements(emails.to_recipients) r
    where emails.user_id = $1 and emails.is_sent = true and lower(r->>'address') = any($2)
    group by 1`;
  const run = async (label: string) => {
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      await t.database.executeSql(statement, [userId, senders]);
      times.push(performance.now() - started);
    }
    const plan = (await t.database.executeSql(`explain ${statement}`, [userId, senders])).rows
      .map((r) => (r as { "QUERY PLAN": string })["QUERY PLAN"])
      .join("\n");
    console.log(`${label}: ${times.map((x) => x.toFixed(1)).join(", ")} ms\n${plan}\n`);
  };
  await run("with emails_user_sent_idx");
  await t.database.executeSql("drop index emails_user_sent_idx");
  await run("without it");
} finally {
  await t.destroy();
}
