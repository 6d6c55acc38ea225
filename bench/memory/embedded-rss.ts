/**
 * Memory of the embedded database (issue 39 "Memory"): the server's resident memory on PGlite
 * after TWO 10k mailboxes were synced through the app and analysed, idle and under the 50-user
 * mixed load, beside list and search latency, for a baseline checkout and this one in the same run.
 *
 * For each checkout (BENCH_ROOTS, default: the baseline worktree /work/wt/base, then this one):
 *   1. a fresh PGlite data folder, the emulator with two generated 10k Gmail mailboxes;
 *   2. the checkout's real server as `npm start` runs it (scripts/build/start.mjs --role=all, the
 *      compiled server; server/main.ts under tsx for a checkout without one; BENCH_ENTRY=tsx forces
 *      tsx), production settings, in its own process; both people sign in through the OAuth pages; sync and analysis run to the end;
 *   3. idle RSS (process and children) after BENCH_IDLE_SECONDS alone, the highest of 5 samples;
 *   4. single-client list and search p95 (BENCH_ROUNDS rounds, the median round);
 *   5. the 50-user mixed load for BENCH_LOAD_SECONDS with RSS sampled every 500 ms (its peak),
 *      then RSS once the load has ended.
 *
 *   npx tsx bench/memory/embedded-rss.ts              (appends a section to bench/RESULTS.md)
 *   BENCH_ROOTS=. BENCH_EMAILS=2000 npx tsx bench/memory/embedded-rss.ts --no-append
 * Targets: idle RSS < 300 MB, RSS under the load < 450 MB, list/search p95 no worse beyond noise.
 */
import { randomBytes } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import type { EmailListResponse, SyncStatus } from "../../contract/mail.ts";
import { PEOPLE } from "../../server/test/auth-fixture.ts";
import { freePort } from "../../server/test/free-port.ts";
import { type AppProcess, compiledEntryOf, startAppProcess } from "../mail/app-process.ts";
import {
  benchAppEnv,
  benchEmulator,
  emulatorAdmin,
  freshDatabase,
  getJson,
  signIn,
  until,
} from "../mail/bench-kit.ts";
import { loadMixed, loadUrl, medianRound } from "../mail/load-runner.ts";
import type { MixedResult } from "../mail/mixed-load-client.ts";
import { appendResults, machineLine } from "../sync/report.ts";
import { formatBreakdown, rssBreakdown } from "./rss-breakdown.ts";

const HERE = path.resolve(fileURLToPath(new URL("../..", import.meta.url)));
const ROOTS = (process.env.BENCH_ROOTS ?? `/work/wt/base,${HERE}`)
  .split(",")
  .filter(Boolean)
  .map((r) => path.resolve(r));
const COUNT = Number(process.env.BENCH_EMAILS ?? 10_000);
/**
 * At rest means after the server's own wind-down: the analyzer's thread ends 30 s after its last
 * batch (server/ai/analyzer-pool.ts) and V8's memory reducer collects about 8 s after allocation
 * slows. Sampled earlier, the RSS still holds the thread and the sync's garbage.
 */
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 60);
const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const COMMON_WORD = "meeting";
/**
 * BENCH_PARALLEL=1 runs the checkouts side by side: on a machine shared with other jobs, both then
 * see the same load (memory is per process; latency and req/s are then each other's competition).
 */
const PARALLEL = process.env.BENCH_PARALLEL === "1";
const PEOPLE_SYNCED = [PEOPLE.alex, PEOPLE.priya];
const PUSH_SECRET = randomBytes(16).toString("hex");

interface Run {
  root: string;
  commit: string;
  syncSeconds: number;
  idleMb: number;
  idleSamples: number[];
  idleWhere: string;
  afterLoadWhere: string;
  list: { p95: number; p95s: number[]; rps: number };
  search: { p95: number; p95s: number[]; rps: number };
  mixed: MixedResult;
  loadPeakMb: number;
  afterLoadMb: number;
  load: string;
}

const loadAvg = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");

async function commitOf(root: string): Promise<string> {
  const { execFile } = await import("node:child_process");
  return new Promise((resolve) =>
    execFile("git", ["-C", root, "log", "-1", "--format=%h"], (err, out) => resolve(err ? "?" : out.trim())),
  );
}

async function idleRss(app: AppProcess): Promise<number[]> {
  await sleep(IDLE_SECONDS * 1000);
  const samples: number[] = [];
  for (let i = 0; i < 5; i++) {
    samples.push(Math.round(await app.rssMb()));
    await sleep(1_000);
  }
  return samples;
}

async function latency(app: AppProcess, token: string, p: string) {
  const opts = { connections: 1, seconds: SECONDS, token };
  await loadUrl(`${app.url}${p}`, opts); // warm-up, discarded
  const rounds = [];
  for (let i = 0; i < ROUNDS; i++) rounds.push(await loadUrl(`${app.url}${p}`, opts));
  const r = medianRound(rounds);
  return { p95: r.p95, p95s: rounds.map((x) => x.p95), rps: r.rps };
}

async function runRoot(root: string): Promise<Run> {
  const load = loadAvg();
  const database = await freshDatabase("pglite");
  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  const emulator = await benchEmulator(appUrl, PUSH_SECRET, ["gmail"]);
  let app: AppProcess | undefined;
  try {
    const admin = emulatorAdmin(emulator.url);
    await admin("PUT", "mail/faults", { gmailQuota: { enabled: false }, graphThrottle: { enabled: false } });
    for (const [i, email] of PEOPLE_SYNCED.entries())
      await admin("POST", `mailboxes/${encodeURIComponent(email)}/generate`, {
        count: COUNT,
        seed: 42 + i,
        days: 60,
      });
    // As `npm start` runs it: the compiled server where the checkout has one (no TypeScript loader,
    // whose hooks thread and esbuild child would count here), else server/main.ts under tsx.
    const entry = compiledEntryOf(root, process.env.BENCH_ENTRY);
    app = await startAppProcess({
      name: `app ${path.basename(root)}`,
      port,
      rootDir: root,
      ...(entry ? { compiledEntry: entry } : {}),
      env: benchAppEnv(appUrl, emulator.url, PUSH_SECRET, database.env),
    });
    const a = app;
    const started = performance.now();
    const tokens: string[] = [];
    for (const email of PEOPLE_SYNCED) tokens.push(await signIn(a, "gmail", email));
    for (const [i, email] of PEOPLE_SYNCED.entries()) {
      const token = tokens[i] ?? "";
      await until(`sync of ${email}`, 60 * 60_000, async () => {
        const { accounts } = await getJson<{ accounts: SyncStatus[] }>(a, token, "/api/emails/sync-status");
        const s = accounts[0];
        if (s?.status === "error" || s?.status === "reauth_required")
          throw new Error(`sync ${s.status}: ${s.lastError}`);
        return s?.status === "idle" && (s.totalEstimate ?? 0) >= COUNT ? s : undefined;
      });
      await until(`analysis of ${email}`, 60 * 60_000, async () => {
        const { pending } = await getJson<{ pending: number }>(
          a,
          token,
          `/api/_test/ai-pending?email=${encodeURIComponent(email)}`,
        );
        return pending === 0 ? true : undefined;
      });
    }
    const syncSeconds = (performance.now() - started) / 1000;
    console.log(`${root}: two mailboxes synced and analysed in ${syncSeconds.toFixed(1)} s`);
    const idleSamples = await idleRss(a);
    const idleMb = Math.max(...idleSamples);
    const idleWhere = formatBreakdown(await rssBreakdown(a.pid));
    console.log(`${root}: idle RSS ${idleMb} MB (${idleSamples.join(", ")}): ${idleWhere}`);

    const token = tokens[0] ?? "";
    const list = await latency(a, token, "/api/emails?limit=50");
    const search = await latency(a, token, `/api/emails?limit=50&q=${COMMON_WORD}`);
    console.log(`${root}: list p95 ${list.p95} ms, search p95 ${search.p95} ms`);

    const page = await getJson<EmailListResponse>(a, token, "/api/emails?limit=200");
    let loadPeakMb = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        loadPeakMb = Math.max(loadPeakMb, await a.rssMb());
        await sleep(500);
      }
    })();
    const mixed = await loadMixed({
      url: a.url,
      token,
      users: 50,
      seconds: LOAD_SECONDS,
      searchWord: COMMON_WORD,
      openIds: page.emails.map((e) => e.id),
      archiveIds: [],
      archiveEvery: 0,
    });
    sampling = false;
    await sampler;
    await sleep(5_000);
    const afterLoadMb = Math.round(await a.rssMb());
    const afterLoadWhere = formatBreakdown(await rssBreakdown(a.pid));
    console.log(
      `${root}: 50 users ${Math.round(mixed.rps)} req/s p95 ${mixed.p95} ms, errors ${mixed.errors}; RSS peak ${Math.round(loadPeakMb)} MB, after ${afterLoadMb} MB: ${afterLoadWhere}`,
    );
    return {
      root,
      commit: await commitOf(root),
      syncSeconds,
      idleMb,
      idleSamples,
      idleWhere,
      afterLoadWhere,
      list,
      search,
      mixed,
      loadPeakMb: Math.round(loadPeakMb),
      afterLoadMb,
      load: `${load} -> ${loadAvg()}`,
    };
  } finally {
    await app?.close();
    await emulator.close();
    // BENCH_KEEP_DB=1 leaves the synced data folder, to open it again with other settings.
    if (process.env.BENCH_KEEP_DB === "1") console.log(`kept ${JSON.stringify(database.env)}`);
    else await database.destroy();
  }
}

async function main(): Promise<void> {
  const runs: Run[] = [];
  if (PARALLEL) {
    // Every run ends (and stops its server) before a failure of one ends the bench.
    for (const r of await Promise.allSettled(ROOTS.map(runRoot))) {
      if (r.status === "rejected") throw r.reason;
      runs.push(r.value);
    }
  } else for (const root of ROOTS) runs.push(await runRoot(root));
  const head = `| measure | ${runs.map((r) => `${path.basename(r.root)} (${r.commit})`).join(" | ")} |`;
  const row = (name: string, f: (r: Run) => string) => `| ${name} | ${runs.map(f).join(" | ")} |`;
  const lines = [
    `## Embedded database memory (issue 39): two ${COUNT.toLocaleString("en")}-message Gmail mailboxes synced and analysed, PGlite`,
    "",
    machineLine(),
    "",
    "`npx tsx bench/memory/embedded-rss.ts`. Each checkout's real server as `npm start` runs it (the compiled server",
    "through scripts/build/start.mjs; server/main.ts under tsx for a checkout without one; --role=all, production",
    "settings) in its own process on a fresh PGlite folder, the emulator in another; two people sign in through the",
    "OAuth pages and their mailboxes are synced and analysed by the app. RSS = the server process and its children",
    `(/proc VmRSS). Idle: alone ${IDLE_SECONDS} s, highest of 5 samples. List/search: one client, ${ROUNDS} rounds of`,
    `${SECONDS} s, the median round's p95 (each round's p95 in brackets). Load: 50 users, no think time, list/open/search`,
    `and a mark-read every 4th round, ${LOAD_SECONDS} s, RSS sampled every 500 ms. Checkouts run ${PARALLEL ? "side by side (BENCH_PARALLEL=1)" : "one after the other"}.`,
    "Where the RSS lies: the server process's /proc smaps by kind of mapping (bench/memory/rss-breakdown.ts).",
    "",
    head,
    `| --- | ${runs.map(() => "---").join(" | ")} |`,
    row("sync + analysis of both (s)", (r) => r.syncSeconds.toFixed(0)),
    row("idle RSS (MB), target < 300", (r) => `${r.idleMb} (${r.idleSamples.join(", ")})`),
    row("list p95 (ms)", (r) => `${r.list.p95} (${r.list.p95s.join(", ")})`),
    row("search q=meeting p95 (ms)", (r) => `${r.search.p95} (${r.search.p95s.join(", ")})`),
    row(
      "50 users: req/s, p95 (ms), errors",
      (r) => `${Math.round(r.mixed.rps)}, ${r.mixed.p95}, ${r.mixed.errors}`,
    ),
    row("RSS peak under load (MB), target < 450", (r) => String(r.loadPeakMb)),
    row("RSS 5 s after the load (MB)", (r) => String(r.afterLoadMb)),
    row("idle: where the server process's RSS lies (MB)", (r) => r.idleWhere),
    row("after the load: where it lies (MB)", (r) => r.afterLoadWhere),
    row("load average (1, 5, 15 min) start -> end", (r) => r.load),
    "",
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
