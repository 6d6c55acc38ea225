/**
 * How late due actions run (issue 37, decision 0073): 10,000 due in the same minute, on PGlite.
 *
 *   npx tsx bench/jobs/due-lateness.ts                        (10,000, batch 10 then the default)
 *   BENCH_ACTIONS=2000 BENCH_BATCHES=10,50 npx tsx bench/jobs/due-lateness.ts --no-append
 *
 * The actions are made through the real path: held mails (the cheapest real kind, a send at the
 * emulator) posted to POST /api/emails/send by a person whose Gmail mailbox the app signed in to
 * and syncs (the sent copies come back through its push sync while the sweep runs). While they
 * are made each chunk is parked far ahead, so none runs early; then all are spread evenly over
 * one minute starting a little ahead, and the app's own sweeper (role all, one process, PGlite)
 * runs them. Lateness is done_at − run_at from the table: the sweeper stamps done_at with the
 * server's clock when a run is done. Each batch size gets a fresh app, database and emulator in
 * the same run, so the first figure is the baseline of the others.
 *
 * The emulator's Gmail quota (15,000 units a minute per user: 150 sends) is lifted, and so is our
 * client's: one person sending 10,000 mails in a minute is beyond any real quota; what is measured
 * is the mechanism, not the provider's limit.
 */
import { sql } from "drizzle-orm";
import { PEOPLE } from "../../server/test/auth-fixture.ts";
import { callApi } from "../../server/test/slow-provider.ts";
import { startSyncFixture, waitUntil } from "../../server/test/sync-fixture.ts";
import { machineLine, publishResults, runMain } from "../sync/report.ts";

const ACTIONS = Number(process.env.BENCH_ACTIONS ?? 10_000);
const BATCHES = (process.env.BENCH_BATCHES ?? "10,default")
  .split(",")
  .map((b) => (b.trim() === "default" ? undefined : Number(b)));
const MINUTE_MS = 60_000;
/**
 * How far ahead the minute starts once all are made: time for the one UPDATE that spreads them
 * (seconds on a busy machine), so none is late because of the bench itself.
 */
const LEAD_MS = 45_000;
const PARKED = new Date("2100-01-01T00:00:00Z");
const CONCURRENCY = 16;

interface Figures {
  batch: string;
  made: number;
  makeSeconds: number;
  p50: number;
  p95: number;
  max: number;
  failed: number;
  sentCopies: number;
  wallSeconds: number;
}

async function runOnce(batch: number | undefined): Promise<Figures> {
  const f = await startSyncFixture(
    "pglite",
    {
      GMAIL_UNITS_PER_MINUTE: "100000000",
      ...(batch === undefined ? {} : { DUE_ACTION_BATCH_SIZE: String(batch) }),
    },
    { emulatorProcess: true, engineDefaults: true, analyseAfterSync: false },
  );
  try {
    await f.admin("PUT", "mail/faults", { gmailQuota: { enabled: false } });
    const { token } = await f.signIn("gmail", PEOPLE.alex);
    const db = f.database.database.db;
    const patch = await callApi(f, "PATCH", "/api/settings/mail", token, { sendDelaySeconds: 30 });
    if (patch.status !== 200) throw new Error(`settings answered ${patch.status}`);

    const made = performance.now();
    const ids: string[] = [];
    for (let i = 0; i < ACTIONS; i += CONCURRENCY * 8) {
      const chunk: string[] = [];
      for (let j = i; j < Math.min(ACTIONS, i + CONCURRENCY * 8); j += CONCURRENCY) {
        const answers = await Promise.all(
          Array.from({ length: Math.min(CONCURRENCY, ACTIONS - j) }, async (_, k) => {
            const subject = `Due ${j + k}`;
            const r = await callApi(f, "POST", "/api/emails/send", token, {
              to: PEOPLE.priya,
              subject,
              body: subject,
            });
            if (r.status !== 200) throw new Error(`send answered ${r.status}: ${JSON.stringify(r.json)}`);
            return String(r.json.outboxId);
          }),
        );
        chunk.push(...answers);
      }
      // Parked until all are made (30 s is well ahead of a chunk's few seconds).
      await db.execute(
        sql`update due_actions set run_at = ${PARKED.toISOString()}::timestamptz where id in (${sql.join(
          chunk.map((id) => sql`${id}::uuid`),
          sql`, `,
        )}) and status = 'pending'`,
      );
      ids.push(...chunk);
      if (ids.length % 1000 < CONCURRENCY * 8) console.log(`  made ${ids.length}/${ACTIONS}`);
    }
    const makeSeconds = (performance.now() - made) / 1000;
    // Evenly over one minute of the server's clock, starting LEAD_MS from now.
    const start = f.services.clock.nowMs() + LEAD_MS;
    await db.execute(sql`
      update due_actions d set run_at = ${new Date(start).toISOString()}::timestamptz + (o.n * ${MINUTE_MS / ACTIONS} * interval '1 millisecond')
      from (select id, row_number() over (order by created_at, id) - 1 as n from due_actions where status = 'pending' and kind = 'send') o
      where d.id = o.id`);
    const spreadLeftMs = start - f.services.clock.nowMs();
    console.log(`  spread over the minute with ${(spreadLeftMs / 1000).toFixed(1)} s to spare`);
    if (spreadLeftMs < 0) throw new Error("the spread ended after the minute began: raise LEAD_MS");
    const wall = performance.now();
    await waitUntil(
      async () => {
        const r = await db.execute(
          sql`select count(*)::int as open from due_actions where status in ('pending', 'running')`,
        );
        const open = Number((r as unknown as { rows: Array<{ open: number }> }).rows[0]?.open ?? 0);
        return open === 0;
      },
      30 * 60_000,
      "every due action to run",
    );
    const wallSeconds = (performance.now() - wall) / 1000;
    const r = await db.execute(sql`
      select
        percentile_cont(0.5) within group (order by extract(epoch from done_at - run_at)) as p50,
        percentile_cont(0.95) within group (order by extract(epoch from done_at - run_at)) as p95,
        max(extract(epoch from done_at - run_at)) as max,
        (select count(*)::int from due_actions where status <> 'done') as failed
      from due_actions where status = 'done'`);
    const row = (r as unknown as { rows: Array<{ p50: number; p95: number; max: number; failed: number }> })
      .rows[0];
    const inbox = await f.admin(
      "GET",
      `mailboxes/${encodeURIComponent(PEOPLE.priya)}?limit=1&provider=google`,
    );
    const sentCopies = Number((inbox.json as { messagesTotal?: number }).messagesTotal ?? Number.NaN);
    return {
      batch: batch === undefined ? "default" : String(batch),
      made: ids.length,
      makeSeconds,
      p50: Number(row?.p50),
      p95: Number(row?.p95),
      max: Number(row?.max),
      failed: Number(row?.failed),
      sentCopies,
      wallSeconds,
    };
  } finally {
    await f.close();
  }
}

async function main(): Promise<void> {
  const results: Figures[] = [];
  for (const batch of BATCHES) {
    console.log(`batch ${batch ?? "default"}: making ${ACTIONS} held mails`);
    const figures = await runOnce(batch);
    console.log(figures);
    results.push(figures);
  }
  const base = results[0];
  const s = (n: number) => n.toFixed(2);
  const rows = results.map(
    (r) =>
      `| ${r.batch} | ${r.made} | ${s(r.p50)} s | ${s(r.p95)} s | ${s(r.max)} s | ${base && base !== r ? `${(base.p95 / r.p95).toFixed(1)}×` : "baseline"} | ${r.failed} | ${Number.isFinite(r.sentCopies) ? r.sentCopies : "n/a"} | ${r.makeSeconds.toFixed(0)} s |`,
  );
  await publishResults(`## Jobs: due-action lateness (${ACTIONS.toLocaleString("en")} due in the same minute, PGlite)

${machineLine()}

bench/jobs/due-lateness.ts. Held mails made through POST /api/emails/send by a signed-in Gmail person (their mailbox synced by the app), spread evenly over one minute of the server's clock, run by the app's own sweeper (role all, PGlite, one process) against the emulator in its own process. Lateness = done_at − run_at. Gmail quotas lifted (the mechanism is measured, not the provider's limit). Target: p95 under 30 s. "p95 gain" is the baseline's p95 over this row's, same run.

| batch size | actions | p50 | p95 | max | p95 gain | not done | at the recipient | making them |
| --- | --- | --- | --- | --- | --- | --- | --- | --- |
${rows.join("\n")}
`);
}

runMain(main);
