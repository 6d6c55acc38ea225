/**
 * The mail API on a mailbox the app built itself (issue 14), not rows inserted in SQL:
 *   1. the real server (`server/main.ts --role=all`, production engine settings) in its own
 *      process, the provider emulator in another, a fresh database (PGlite, or a throwaway
 *      PostgreSQL database on the test server);
 *   2. BENCH_EMAILS messages generated in the emulator's Gmail mailbox (quota raised), a sign-in
 *      through the real OAuth pages, then the sync engine's first page and backfill, and the AI
 *      analysis of every synced email: that is the mailbox a person gets, and how long it took;
 *   3. one client (BENCH_CONNECTIONS) on list, bucket list, search for a common and a rare word,
 *      open, stats, beside GET /healthz of the same server in the same run (the baseline);
 *   4. mixed loads (BENCH_MIX, users:seconds[:archive]): people with no think time doing
 *      list + open + search + a mark-read every 4th round (mixed-load-client.ts), errors counted;
 *      ":archive" adds an archive (a provider write) every 8th round and reports its latency;
 *   5. the plan of the common-word search (EXPLAIN ANALYZE) on the synced data, after the server stops;
 *   6. the resident memory of an idle server on an empty embedded database.
 * Load clients run in processes of their own, so the app's process holds only the app.
 *
 *   npx tsx bench/mail/api-load.ts                          (10,000 messages; PGlite and PostgreSQL)
 *   BENCH_DB=pglite BENCH_EMAILS=100000 BENCH_MIX=50:20 npx tsx bench/mail/api-load.ts --no-append
 * Targets (issue 14, 10k Gmail mailbox synced by the app, embedded database): list p95 < 25 ms;
 * search for a common word p95 < 80 ms; 50 users 20 s >= 200 req/s, p95 < 1 s, 0 errors; 200 users
 * 60 s 0 errors, archive p95 < 2 s; idle RSS on an empty embedded database < 400 MB.
 * bench/mail/api-load-seeded.ts is the older variant on rows written in SQL.
 */

import { randomBytes } from "node:crypto";
import os from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import type { EmailListResponse, EmailStats, SyncStatus } from "../../contract/mail.ts";
import { openDatabase } from "../../server/db/client.ts";
import { listQuery } from "../../server/mail/email-lister.ts";
import { PEOPLE } from "../../server/test/auth-fixture.ts";
import type { BackendKind } from "../../server/test/databases.ts";
import { freePort } from "../../server/test/free-port.ts";
import { appendResults, machineLine } from "../sync/report.ts";
import {
  type AppProcess,
  cpuByThread,
  cpuOfProcessesMatching,
  machineBusySeconds,
  ownChildren,
  startAppProcess,
} from "./app-process.ts";
import {
  benchAppEnv,
  benchEmulator,
  emulatorAdmin,
  freshDatabase,
  getJson,
  inboxIds,
  signIn,
  until,
} from "./bench-kit.ts";
import type { LoadResult } from "./load-client.ts";
import { loadMixed, loadUrl, medianRound } from "./load-runner.ts";
import type { MixedResult } from "./mixed-load-client.ts";

const COUNT = Number(process.env.BENCH_EMAILS ?? 10_000);
// BENCH_DB=none measures only the idle server.
const BACKENDS = (process.env.BENCH_DB ?? "pglite,postgres")
  .split(",")
  .filter((b) => b && b !== "none") as BackendKind[];
/** The targets are for one client; 10 shows how the calls share the server. */
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 1);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
/** Measured rounds per call after the warm-up: one round's p95 moves from run to run. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** users:seconds[:archive], comma separated. */
const MIXES = (process.env.BENCH_MIX ?? "50:20,200:60:archive")
  .split(",")
  .filter((spec) => spec.trim() !== "")
  .map((spec) => {
    const [users, seconds, archive] = spec.split(":");
    return { users: Number(users), seconds: Number(seconds), archive: archive === "archive" };
  });
const IDLE_RSS = process.env.BENCH_IDLE_RSS !== "no";
/** How long the idle server is left alone before its memory is read. */
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 15);
const COMMON_WORD = process.env.BENCH_COMMON_WORD ?? "meeting";
/**
 * Share of the generated personal mail that answers earlier mail (a third of it the person's own,
 * sent): conversations for the view=conversations calls (issue 35). 0 gives no conversations.
 */
const REPLY_SHARE = Number(process.env.BENCH_REPLY_SHARE ?? 0);
const EMAIL = PEOPLE.alex;
const PUSH_SECRET = randomBytes(16).toString("hex");

interface CallLine extends LoadResult {
  backend: BackendKind;
  name: string;
  p95s: number[];
  /** This call's p95 over the baseline's p95 in the same run. */
  ratio: number;
}

interface MixLine extends MixedResult {
  backend: BackendKind;
  users: number;
  archive: boolean;
  /** Where the machine's CPU went during the run. */
  cpu: string;
}

/**
 * CPU used during a run, as a share of one core: the app's main thread, its busiest other thread
 * (PGlite's worker), the PostgreSQL backends of the bench's database, the emulator, and the rest
 * of the machine (the load client and whatever else runs there).
 */
async function cpuAccount(appPid: number, emulatorPids: number[], postgresDb: string | undefined) {
  const sum = (m: Map<number, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  const take = async () => ({
    app: await cpuByThread(appPid),
    emulator: (await Promise.all(emulatorPids.map(cpuByThread))).map(sum).reduce((a, b) => a + b, 0),
    postgres: postgresDb ? await cpuOfProcessesMatching(postgresDb) : 0,
    busy: await machineBusySeconds(),
    at: performance.now(),
  });
  const before = await take();
  return async (): Promise<string> => {
    const after = await take();
    const seconds = (after.at - before.at) / 1000;
    const pct = (cpuSeconds: number) => `${Math.round((100 * cpuSeconds) / seconds)}%`;
    const delta = (tid: number) => (after.app.get(tid) ?? 0) - (before.app.get(tid) ?? 0);
    const main = delta(appPid);
    const others = [...after.app.keys()]
      .filter((tid) => tid !== appPid)
      .map(delta)
      .sort((x, y) => y - x);
    const appTotal = main + others.reduce((a, b) => a + b, 0);
    const emulator = after.emulator - before.emulator;
    const postgres = after.postgres - before.postgres;
    const busy = after.busy - before.busy;
    return [
      `app ${pct(appTotal)} (main thread ${pct(main)}, busiest other thread ${pct(others[0] ?? 0)})`,
      ...(postgresDb ? [`PostgreSQL backends ${pct(postgres)}`] : []),
      `emulator ${pct(emulator)}`,
      `rest of the machine (load client, other jobs) ${pct(busy - appTotal - emulator - postgres)}`,
      `machine busy ${pct(busy)} of 200%`,
    ].join(", ");
  };
}

interface BackendReport {
  backend: BackendKind;
  syncSeconds: number;
  analysedSeconds: number;
  synced: number;
  calls: CallLine[];
  mixes: MixLine[];
  notes: string[];
  plan: string;
  rssAfterMb: number;
}

/** The EXPLAIN ANALYZE of the common-word search page and the match counts, on the stopped server's data. */
async function searchPlan(
  config: { kind: "pglite"; dir: string } | { kind: "postgres"; url: string },
  rareWord: string,
): Promise<{ plan: string; notes: string[] }> {
  const database = await openDatabase({ database: config });
  try {
    const [owner] = (await database.executeSql("select user_id from mail_accounts where email = $1", [EMAIL]))
      .rows as Array<{ user_id: string }>;
    if (!owner) throw new Error("no account after the run");
    const count = async (where: string, values: unknown[]) =>
      (
        (await database.executeSql(`select count(*)::int as n from emails where ${where}`, values))
          .rows as Array<{
          n: number;
        }>
      )[0]?.n ?? 0;
    const inbox = await count("user_id = $1 and in_inbox", [owner.user_id]);
    const common = await count(`user_id = $1 and in_inbox and search @@ to_tsquery('simple', $2)`, [
      owner.user_id,
      `${COMMON_WORD}:*`,
    ]);
    const rare = await count(`user_id = $1 and in_inbox and search @@ to_tsquery('simple', $2)`, [
      owner.user_id,
      `${rareWord}:*`,
    ]);
    const { sql, params } = listQuery(database.db, owner.user_id, { limit: 50, q: COMMON_WORD }).toSQL();
    const explained = await database.executeSql(`explain (analyze, buffers) ${sql}`, params);
    const plan = (explained.rows as Array<Record<string, string>>).map((r) => Object.values(r)[0]).join("\n");
    return {
      plan,
      notes: [
        `inbox ${inbox.toLocaleString("en")} emails; "${COMMON_WORD}" matches ${common.toLocaleString("en")} (${Math.round((100 * common) / Math.max(1, inbox))}%), "${rareWord}" matches ${rare}`,
      ],
    };
  } finally {
    await database.close();
  }
}

/** The 1-minute load average: other jobs on a shared machine move every figure. */
const loadAvg = () => (os.loadavg()[0] ?? 0).toFixed(1);

async function runBackend(backend: BackendKind): Promise<BackendReport> {
  const loadAtStart = loadAvg();
  const database = await freshDatabase(backend);
  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  const emulator = await benchEmulator(appUrl, PUSH_SECRET, ["gmail", "outlook"]);
  let app: AppProcess | undefined;
  try {
    const admin = emulatorAdmin(emulator.url);
    await admin("PUT", "mail/faults", { gmailQuota: { enabled: false }, graphThrottle: { enabled: false } });
    await admin("POST", `mailboxes/${encodeURIComponent(EMAIL)}/generate`, {
      count: COUNT,
      seed: 42,
      days: 60,
      ...(REPLY_SHARE > 0 ? { replyShare: REPLY_SHARE } : {}),
    });

    app = await startAppProcess({
      name: `app ${backend}`,
      port,
      env: benchAppEnv(appUrl, emulator.url, PUSH_SECRET, database.env),
    });
    const started = performance.now();
    const token = await signIn(app, "gmail", EMAIL);
    const a = app;
    const status = await until("backfill", 60 * 60_000, async () => {
      const { accounts } = await getJson<{ accounts: SyncStatus[] }>(a, token, "/api/emails/sync-status");
      const s = accounts[0];
      if (s?.status === "error" || s?.status === "reauth_required")
        throw new Error(`sync ${s.status}: ${s.lastError}`);
      // With conversations some mail is the person's sent mail, outside the inbox's total.
      const synced = REPLY_SHARE > 0 ? s?.syncedCount : s?.totalEstimate;
      return s?.status === "idle" && (synced ?? 0) >= COUNT ? s : undefined;
    });
    const syncSeconds = (performance.now() - started) / 1000;
    await until("analysis", 60 * 60_000, async () => {
      const { pending } = await getJson<{ pending: number }>(
        a,
        token,
        `/api/_test/ai-pending?email=${encodeURIComponent(EMAIL)}`,
      );
      return pending === 0 ? true : undefined;
    });
    const analysedSeconds = (performance.now() - started) / 1000;
    console.log(
      `${backend}: ${status.totalEstimate} messages synced in ${syncSeconds.toFixed(1)} s, all analysed at ${analysedSeconds.toFixed(1)} s`,
    );
    // The app's own upkeep after a big write (statistics) gets a moment, as it would before anyone searches.
    await sleep(3_000);
    const ready = (await (await fetch(`${app.url}/readyz`)).json()) as { maintenance?: unknown };
    const notes = [`/readyz maintenance after sync: ${JSON.stringify(ready.maintenance ?? {})}`];

    const stats = await getJson<EmailStats>(app, token, "/api/emails/stats");
    const [bucket, bucketCounts] =
      Object.entries(stats.buckets).sort((x, y) => y[1].total - x[1].total)[0] ?? [];
    if (!bucket || !bucketCounts) throw new Error("no buckets after analysis");
    // A rare word that exists: the number of one shipped order ("Your order #123456 has shipped").
    const shipped = await getJson<EmailListResponse>(app, token, "/api/emails?limit=50&q=shipped");
    const rareWord = shipped.emails.map((e) => /#(\d{6})/.exec(e.subject)?.[1]).find(Boolean);
    if (!rareWord) throw new Error("no shipped order to take a rare word from");
    const ids = await inboxIds(app, token, 4_000);
    const openIds = ids.slice(0, 1_000);
    const archiveIds = ids.slice(1_000);
    const openOne = openIds[100] ?? openIds[0];
    if (!openOne) throw new Error("empty inbox");
    notes.push(
      `bucket list: bucket=${bucket} (${bucketCounts.total.toLocaleString("en")} in the inbox, the largest); rare word: ${rareWord}`,
    );

    const cases: Array<[string, string, boolean]> = [
      ["static JSON baseline (GET /healthz)", "/healthz", false],
      ["list: GET /api/emails?limit=50", "/api/emails?limit=50", true],
      [
        `bucket list: GET /api/emails?limit=50&bucket=${bucket}`,
        `/api/emails?limit=50&bucket=${bucket}`,
        true,
      ],
      [`search, common word: q=${COMMON_WORD}`, `/api/emails?limit=50&q=${COMMON_WORD}`, true],
      [`search, rare word: q=${rareWord}`, `/api/emails?limit=50&q=${rareWord}`, true],
      // Issue 35: the same lists one row per conversation (the client's default view).
      [
        "conversations: GET /api/emails?limit=50&view=conversations",
        "/api/emails?limit=50&view=conversations",
        true,
      ],
      [
        `conversations, bucket list: bucket=${bucket}`,
        `/api/emails?limit=50&bucket=${bucket}&view=conversations`,
        true,
      ],
      [
        `conversations, search common word: q=${COMMON_WORD}`,
        `/api/emails?limit=50&q=${COMMON_WORD}&view=conversations`,
        true,
      ],
      ["open: GET /api/emails/:id", `/api/emails/${openOne}`, true],
      ["stats: GET /api/emails/stats", "/api/emails/stats", true],
    ];
    const calls: CallLine[] = [];
    let baseline = Number.NaN;
    for (const [name, p, authed] of cases) {
      const opts = { connections: CONNECTIONS, seconds: SECONDS, token: authed ? token : undefined };
      await loadUrl(`${app.url}${p}`, opts); // warm-up round, discarded
      const rounds: LoadResult[] = [];
      for (let i = 0; i < ROUNDS; i++) rounds.push(await loadUrl(`${app.url}${p}`, opts));
      const r = medianRound(rounds);
      if (Number.isNaN(baseline)) baseline = r.p95;
      const line: CallLine = {
        backend,
        name,
        ...r,
        errors: rounds.reduce((sum, x) => sum + x.errors, 0),
        p95s: rounds.map((x) => x.p95),
        ratio: r.p95 / Math.max(baseline, 0.1),
      };
      console.log(
        `${backend} ${name}: ${Math.round(line.rps)} req/s, p50 ${line.p50} p95 ${line.p95} (rounds ${line.p95s.join(", ")}) max ${line.max} ms, errors ${line.errors}`,
      );
      calls.push(line);
    }

    const mixes: MixLine[] = [];
    let archiveStart = 0;
    const emulatorPids = await ownChildren("child-process.ts");
    for (const mix of MIXES) {
      const cpu = await cpuAccount(
        app.pid,
        emulatorPids,
        database.config.kind === "postgres" ? new URL(database.config.url).pathname.slice(1) : undefined,
      );
      const result = await loadMixed({
        url: app.url,
        token,
        users: mix.users,
        seconds: mix.seconds,
        searchWord: COMMON_WORD,
        openIds,
        archiveIds: mix.archive ? archiveIds.slice(archiveStart) : [],
        archiveEvery: mix.archive ? 8 : 0,
      });
      archiveStart += result.kinds.archive?.count ?? 0;
      const line: MixLine = { backend, users: mix.users, archive: mix.archive, ...result, cpu: await cpu() };
      console.log(`  CPU: ${line.cpu}`);
      console.log(
        `${backend} mixed ${mix.users} users ${mix.seconds} s: ${Math.round(result.rps)} req/s, p50 ${result.p50} p95 ${result.p95} p99 ${result.p99} max ${result.max} ms, errors ${result.errors}; ${Object.entries(
          result.kinds,
        )
          .map(([k, s]) => `${k} n=${s.count} p95 ${s.p95}`)
          .join(", ")}${result.errorSamples.length ? `; errors: ${result.errorSamples.join(" | ")}` : ""}`,
      );
      mixes.push(line);
      // Write-backs and the pushes they cause settle before the next run.
      await sleep(5_000);
    }
    const rssAfterMb = await app.rssMb();
    await app.close();
    app = undefined;
    const explained = await searchPlan(database.config, rareWord);
    console.log(explained.plan);
    return {
      backend,
      syncSeconds,
      analysedSeconds,
      synced: status.totalEstimate ?? 0,
      calls,
      mixes,
      notes: [
        ...notes,
        ...explained.notes,
        `load average ${loadAtStart} at the start, ${loadAvg()} at the end`,
      ],
      plan: explained.plan,
      rssAfterMb,
    };
  } finally {
    await app?.close();
    await emulator.close();
    // BENCH_KEEP_DB=1 leaves the synced database for a look at its plans (psql, EXPLAIN).
    if (process.env.BENCH_KEEP_DB === "1")
      console.log(`kept the ${backend} database: ${JSON.stringify(database.config)}`);
    else await database.destroy();
  }
}

/** RSS of a server on an empty embedded database once it has nothing to do. */
async function idleRss(): Promise<{ mb: number; samples: number[] }> {
  const database = await freshDatabase("pglite");
  const port = await freePort();
  const app = await startAppProcess({
    name: "idle app",
    port,
    env: benchAppEnv(`http://127.0.0.1:${port}`, "http://127.0.0.1:9", PUSH_SECRET, database.env),
  });
  try {
    await sleep(IDLE_SECONDS * 1000);
    const samples: number[] = [];
    for (let i = 0; i < 5; i++) {
      samples.push(Math.round(await app.rssMb()));
      await sleep(1_000);
    }
    return { mb: Math.max(...samples), samples };
  } finally {
    await app.close();
    await database.destroy();
  }
}

const fmt = (n: number) => (Number.isFinite(n) ? String(Math.round(n * 10) / 10) : "-");
const verdict = (ok: boolean) => (ok ? "met" : "**not met**");

async function main(): Promise<void> {
  const reports: BackendReport[] = [];
  for (const backend of BACKENDS) reports.push(await runBackend(backend));
  const idle = IDLE_RSS ? await idleRss() : undefined;
  if (idle) console.log(`idle RSS: ${idle.mb} MB (samples ${idle.samples.join(", ")})`);

  const targetRows: string[] = [];
  for (const r of reports) {
    const call = (prefix: string) => r.calls.find((c) => c.name.startsWith(prefix));
    const list = call("list:");
    const search = call("search, common");
    if (list)
      targetRows.push(`| ${r.backend} | list p95 < 25 ms | ${list.p95} ms | ${verdict(list.p95 < 25)} |`);
    if (search)
      targetRows.push(
        `| ${r.backend} | search q=${COMMON_WORD} p95 < 80 ms | ${search.p95} ms | ${verdict(search.p95 < 80)} |`,
      );
    for (const m of r.mixes) {
      if (m.users === 50)
        targetRows.push(
          `| ${r.backend} | 50 users: >= 200 req/s, p95 < 1 s, 0 errors | ${Math.round(m.rps)} req/s, p95 ${fmt(m.p95)} ms, ${m.errors} errors | ${verdict(m.rps >= 200 && m.p95 < 1000 && m.errors === 0)} |`,
        );
      if (m.archive) {
        const archive = m.kinds.archive;
        targetRows.push(
          `| ${r.backend} | ${m.users} users: 0 errors, archive p95 < 2 s | ${m.errors} errors, archive p95 ${archive ? `${fmt(archive.p95)} ms (n=${archive.count})` : "-"} | ${verdict(m.errors === 0 && archive !== undefined && archive.p95 < 2000)} |`,
        );
      }
    }
  }
  if (idle)
    targetRows.push(
      `| pglite | idle RSS, empty embedded database < 400 MB | ${idle.mb} MB | ${verdict(idle.mb < 400)} |`,
    );

  const lines = [
    `## Mail API on a mailbox built by sync (issue 14): ${COUNT.toLocaleString("en")} Gmail messages, ${CONNECTIONS} client(s), ${ROUNDS} rounds of ${SECONDS} s per call`,
    "",
    machineLine(),
    "",
    "`npx tsx bench/mail/api-load.ts`. The real server (`server/main.ts --role=all`, NODE_ENV=production, production",
    "engine settings) in its own process, the emulator in another, each load client in a third. The mailbox is generated",
    "in the emulator (seed 42, 60 days), signed in to through the OAuth pages, synced by the sync engine (quota raised) and",
    "analysed by the local AI engine before anything is measured; no row is written by the bench. Latency in ms from every",
    `response. After a warm-up round each call runs ${ROUNDS} rounds; the row is the round with the median p95. Ratio = p95 /`,
    "baseline p95 (GET /healthz, same server, same run). Mixed load: N people with no think time on N connections, one",
    "person's session and mailbox shared by all of them, each repeating list -> open -> search (common word) and a mark-read",
    "toggle (PATCH, written back to the emulator) every 4th round; `+archive`: also an archive (PATCH isArchived, a provider",
    "write) every 8th round, each of a different email.",
    "",
    ...reports.flatMap((r) => [
      `- ${r.backend}: ${r.synced.toLocaleString("en")} messages synced in ${r.syncSeconds.toFixed(1)} s from sign-in, all analysed at ${r.analysedSeconds.toFixed(1)} s; server RSS after the loads ${Math.round(r.rssAfterMb)} MB; ${r.notes.join("; ")}`,
    ]),
    ...(idle
      ? [
          `- idle server (role all, empty PGlite database, production settings, left alone ${IDLE_SECONDS} s): RSS ${idle.mb} MB (process and children; samples ${idle.samples.join(", ")})`,
        ]
      : []),
    "",
    "| target | measure | measured | verdict |",
    "| --- | --- | --- | --- |",
    ...targetRows,
    "",
    "| backend | call | req/s | p50 | p95 | p95 of each round | p99 | max | errors | p95 vs baseline |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...reports.flatMap((r) =>
      r.calls.map(
        (l) =>
          `| ${l.backend} | ${l.name} | ${Math.round(l.rps)} | ${l.p50} | ${l.p95} | ${l.p95s.join(", ")} | ${l.p99} | ${l.max} | ${l.errors} | ${l.ratio.toFixed(1)}× |`,
      ),
    ),
    "",
    "| backend | mixed load | seconds | req/s | p50 | p95 | p99 | max | errors | p95 by kind (count) |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...reports.flatMap((r) =>
      r.mixes.map(
        (m) =>
          `| ${m.backend} | ${m.users} users${m.archive ? " +archive" : ""} | ${m.seconds.toFixed(0)} | ${Math.round(m.rps)} | ${fmt(m.p50)} | ${fmt(m.p95)} | ${fmt(m.p99)} | ${fmt(m.max)} | ${m.errors} | ${Object.entries(
            m.kinds,
          )
            .map(([k, s]) => `${k} ${fmt(s.p95)} (${s.count}${s.errors ? `, ${s.errors} errors` : ""})`)
            .join("; ")} |`,
      ),
    ),
    "",
    ...reports.flatMap((r) =>
      r.mixes.map(
        (m) => `- CPU during ${r.backend} ${m.users} users${m.archive ? " +archive" : ""}: ${m.cpu}`,
      ),
    ),
    "",
    ...reports.flatMap((r) => [
      `Plan of the common-word search page (q=${COMMON_WORD}, limit 50) on ${r.backend}, after the loads:`,
      "",
      "```",
      r.plan,
      "```",
      "",
    ]),
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
