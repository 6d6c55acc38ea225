/**
 * Recipient suggestions (issue 36, decision 0068) on 10,000 emails written straight in SQL for one
 * person with a Gmail and an Outlook account: 8,000 received from 4,000 distinct senders with
 * names, 2,000 sent to 2,000 distinct recipients (about 6,000 contacts, more than most people
 * have). Measures the rebuild the contact book runs after a sync, and GET /api/contacts over real
 * HTTP on the embedded database.
 * Run: npx tsx bench/mail/contacts-suggest.ts
 * Targets: rebuild well under a second; GET /api/contacts p95 < 20 ms.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "../../server/db/client.ts";
import { refreshContacts } from "../../server/mail/contacts/refresh.ts";
import { createAccount, createUser, sessionFor } from "../../server/test/factories.ts";
import { startTestServer } from "../../server/test/server.ts";

const COUNT = Number(process.env.BENCH_EMAILS ?? 10_000);
const RUNS = 200;
const FIRST = ["Priya", "Alex", "Sam", "Jordan", "Casey", "Dana", "Robin", "Kim", "Lee", "Noor"];

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "mailwise-bench-"));
  const database = await openDatabase({ database: { kind: "pglite", dir } });
  const user = await createUser(database.db);
  const gmail = await createAccount(database.db, user.id, { provider: "gmail" });
  const outlook = await createAccount(database.db, user.id, { provider: "outlook" });
  const sent = Math.floor(COUNT / 5);
  await database.executeSql(
    `insert into emails (user_id, account_id, provider_id, from_name, from_address, to_recipients, cc_recipients,
       subject, received_at, is_sent)
     select $1, case when i % 2 = 0 then $2::uuid else $3::uuid end, 'bench-' || i,
       case when i <= $4 then 'Me' else ($5::text[])[1 + i % 10] || ' Person' || (i % ($6 / 2)) end,
       case when i <= $4 then 'me@example.com' else 'person' || (i % ($6 / 2)) || '@example.org' end,
       case when i <= $4
         then jsonb_build_array(jsonb_build_object('name', 'Friend ' || i, 'address', 'friend' || i || '@example.net'))
         else jsonb_build_array(jsonb_build_object('name', 'Me', 'address', 'me@example.com')) end,
       '[]'::jsonb, 'Subject ' || i, now() - (i || ' minutes')::interval, i <= $4
     from generate_series(1, $6::int) i`,
    [user.id, gmail.id, outlook.id, sent, FIRST, COUNT],
  );
  await database.executeSql("vacuum analyze emails");

  const rebuilds: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    await refreshContacts(database.db, user.id);
    rebuilds.push(performance.now() - t);
  }
  await database.executeSql("vacuum analyze contacts");
  const [{ n } = { n: 0 }] = (await database.executeSql("select count(*)::int as n from contacts"))
    .rows as Array<{
    n: number;
  }>;
  console.log(
    `${n} contacts; rebuild: first ${Math.round(rebuilds[0] ?? 0)} ms (inserts), then ${Math.round(Math.max(...rebuilds.slice(1)))} ms (nothing changed)`,
  );

  const server = await startTestServer(database, {
    DEMO_MODE: "off",
    PROVIDER_EMULATOR_URL: "http://127.0.0.1:9",
  });
  const token = await sessionFor(database.db, user.id);
  const get = async (q: string) => {
    const r = await fetch(`${server.url}/api/contacts?q=${encodeURIComponent(q)}&limit=8`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (r.status !== 200) throw new Error(`${q} answered ${r.status}: ${await r.text()}`);
    return (await r.json()) as { contacts: unknown[] };
  };
  const lines = [
    `| GET /api/contacts (${n} contacts, PGlite, HTTP) | hits | p50 ms | p95 ms |`,
    "|---|---|---|---|",
  ];
  for (const q of ["p", "person12", "priya", "fri", "zzz", ""]) {
    for (let i = 0; i < 20; i++) await get(q);
    const times: number[] = [];
    let hits = 0;
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      hits = (await get(q)).contacts.length;
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    const at = (p: number) =>
      (times[Math.min(times.length - 1, Math.floor(p * times.length))] ?? 0).toFixed(1);
    lines.push(`| q=${JSON.stringify(q)} | ${hits} | ${at(0.5)} | ${at(0.95)} |`);
  }
  console.log(lines.join("\n"));
  await server.close();
  await database.close();
  await rm(dir, { recursive: true, force: true });
}

await main();
