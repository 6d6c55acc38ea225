/**
 * Initial-sync throughput: N messages generated in the emulator's Gmail mailbox, synced by the
 * real engine (sign-in -> first page -> backfill jobs) into PGlite and PostgreSQL, with no quota.
 * Baseline in the same run: a bare bulk insert of the same rows into the same database.
 *
 *   npx tsx bench/sync/throughput.ts            (10,000 and 100,000; both backends)
 *   BENCH_SYNC_SIZES=10000 BENCH_DB=pglite BENCH_AI=no npx tsx bench/sync/throughput.ts
 * Target: sync rate at least half the baseline's rate.
 */
import { eq, sql } from "drizzle-orm";
import { storedEmailColumns } from "../../server/db/email-columns.ts";
import { emails } from "../../server/db/schema.ts";
import { insertEmailRows } from "../../server/sync/upsert.ts";
import type { BackendKind } from "../../server/test/databases.ts";
import { startSyncFixture, waitUntil } from "../../server/test/sync-fixture.ts";
import { appendResults, machineLine } from "./report.ts";

const SIZES = (process.env.BENCH_SYNC_SIZES ?? "10000,100000").split(",").map(Number);
const BACKENDS = (process.env.BENCH_DB ?? "pglite,postgres").split(",") as BackendKind[];
/** "no": sync alone; "yes": with the AI analysis on, as in production. */
const ANALYSIS = (process.env.BENCH_AI ?? "no,yes").split(",").map((v) => v === "yes");
/** The emulator runs in its own process, as Google does, unless BENCH_EMULATOR=inline. */
const EMULATOR_PROCESS = process.env.BENCH_EMULATOR !== "inline";
const EMAIL = "alex.morgan@gmail.com";

interface Row {
  backend: BackendKind;
  /** Whether the AI analysis of synced mail was on, as it is in production. */
  analysis: boolean;
  count: number;
  firstPageMs: number;
  syncSeconds: number;
  syncRate: number;
  /** With analysis on: seconds from sign-in until every synced email was analysed. */
  analysedSeconds: number | undefined;
  baselineRate: number;
  peakRssMb: number;
}

async function runOne(backend: BackendKind, count: number, analysis: boolean): Promise<Row> {
  // The engine's production settings (backfill budget, job polling), not the tests' short ones.
  const f = await startSyncFixture(
    backend,
    { SYNC_DEPTH_DAYS: "3650", GMAIL_UNITS_PER_MINUTE: "100000000" },
    { engineDefaults: true, analyseAfterSync: analysis, emulatorProcess: EMULATOR_PROCESS },
  );
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 100);
  try {
    await f.admin("PUT", "mail/faults", {
      gmailQuota: { enabled: false },
      graphThrottle: { enabled: false },
    });
    const enc = encodeURIComponent(EMAIL);
    const generated = await f.admin("POST", `mailboxes/${enc}/generate`, { count, seed: 42, days: 60 });
    if (generated.status >= 300) throw new Error(`generate failed: ${generated.text}`);

    const started = performance.now();
    const { accountId, userId } = await f.signIn("gmail", EMAIL);
    const db = f.database.database.db;
    const countRows = async () =>
      (
        await db.select({ n: sql<number>`count(*)::int` }).from(emails).where(eq(emails.accountId, accountId))
      )[0]?.n ?? 0;
    await waitUntil(async () => (await countRows()) > 0, 60_000, "first page");
    const firstPageMs = performance.now() - started;
    await waitUntil(
      async () => {
        const state = await f.state(accountId);
        return state?.backfillDone === true && (await countRows()) >= count;
      },
      30 * 60_000,
      "backfill",
    );
    const syncSeconds = (performance.now() - started) / 1000;
    const synced = await countRows();
    if (synced !== count) throw new Error(`synced ${synced} rows, expected ${count}`);
    // The baseline below gets the machine to itself: the analysis finishes first.
    let analysedSeconds: number | undefined;
    if (analysis) {
      await waitUntil(async () => (await f.services.ai.jobs.pending(userId)) === 0, 30 * 60_000, "analysis");
      analysedSeconds = (performance.now() - started) / 1000;
    }

    // Baseline: the very same rows, deleted and inserted again in bulk (500 per statement), by the
    // same bulk insert the sync uses (one JSON value per statement), minus everything else sync does.
    // Stored columns only: the database derives the search vector and the list analysis itself.
    const insertable = await db
      .select(storedEmailColumns)
      .from(emails)
      .where(eq(emails.accountId, accountId));
    await db.delete(emails).where(eq(emails.accountId, accountId));
    const t0 = performance.now();
    for (let i = 0; i < insertable.length; i += 500) {
      await insertEmailRows(db, insertable.slice(i, i + 500), { upsert: false });
    }
    const baselineSeconds = (performance.now() - t0) / 1000;
    return {
      backend,
      analysis,
      count,
      firstPageMs,
      syncSeconds,
      syncRate: count / syncSeconds,
      analysedSeconds,
      baselineRate: count / baselineSeconds,
      peakRssMb: peakRss / 1024 / 1024,
    };
  } finally {
    clearInterval(sampler);
    await f.close();
  }
}

async function main(): Promise<void> {
  const results: Row[] = [];
  for (const count of SIZES) {
    for (const [backend, analysis] of BACKENDS.flatMap((b) => ANALYSIS.map((a) => [b, a] as const))) {
      console.log(`sync ${count} messages into ${backend}${analysis ? " with AI analysis on" : ""} ...`);
      const r = await runOne(backend, count, analysis);
      console.log(
        `  first page ${Math.round(r.firstPageMs)} ms, all in ${r.syncSeconds.toFixed(1)} s = ${Math.round(r.syncRate)} msg/s; baseline ${Math.round(r.baselineRate)} rows/s; ratio ${(r.syncRate / r.baselineRate).toFixed(2)}${r.analysedSeconds === undefined ? "" : `; all analysed at ${r.analysedSeconds.toFixed(1)} s`}; peak RSS ${Math.round(r.peakRssMb)} MB`,
      );
      results.push(r);
    }
  }
  const lines = [
    "## Sync: initial sync throughput, no quota (Gmail adapter, emulator)",
    "",
    machineLine(),
    "",
    "`npx tsx bench/sync/throughput.ts`. The app (with, for PGlite, its database thread) in one process, production engine",
    "settings; the emulator in a process of its own, as Google is (BENCH_EMULATOR=inline puts it in the app's process).",
    "Sync = sign-in to the last backfill page stored; baseline = a bare bulk insert (500 rows a statement, the same JSON",
    'insert sync uses) of the same rows into the same database, same run, with the machine to itself. "AI analysis: on": the',
    "local analyzer runs as in production (the newest mail at once, older mail after the backfill); all analysed = sign-in",
    "to the last email analysed. Target: ratio >= 0.5. Peak RSS is the app's process.",
    "",
    "| backend | AI analysis | messages | first page visible | sync time | sync msg/s | all analysed | baseline rows/s | ratio | peak RSS |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...results.map(
      (r) =>
        `| ${r.backend} | ${r.analysis ? "on" : "off"} | ${r.count.toLocaleString("en")} | ${Math.round(r.firstPageMs)} ms | ${r.syncSeconds.toFixed(1)} s | ${Math.round(r.syncRate)} | ${r.analysedSeconds === undefined ? "-" : `${r.analysedSeconds.toFixed(1)} s`} | ${Math.round(r.baselineRate)} | ${(r.syncRate / r.baselineRate).toFixed(2)} | ${Math.round(r.peakRssMb)} MB |`,
    ),
  ];
  if (!process.argv.includes("--no-append")) await appendResults(lines.join("\n"));
  console.log(lines.join("\n"));
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
