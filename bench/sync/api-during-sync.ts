/**
 * Sync does not hurt the API (issue 39): one person's list latency while another person's mailbox
 * syncs and is analysed in the same `--role=all` process (npm start's mode, PGlite).
 *   1. The emulator in its own process holds two Gmail mailboxes of BENCH_EMAILS messages each.
 *   2. Person A signs in; the app syncs and analyses A's mailbox; A's list
 *      (GET /api/emails?limit=50, one client, no think time) is timed for BENCH_IDLE_SECONDS: idle.
 *   3. Person B signs in; A's list is timed until B's mailbox is synced and analysed: busy.
 * Both phases also read the server's event-loop delay (loop-delay-probe.ts, preloaded) and the CPU
 * of its main thread and its busiest other thread (the PGlite worker, or the analyzer's pool), so
 * the extra latency can be put on the event loop or on the database thread.
 * Each variant runs in the same run: BENCH_BASE_DIR (a worktree of dab9444) and this checkout.
 *
 *   npx tsx bench/sync/api-during-sync.ts
 *   BENCH_EMAILS=2000 BENCH_VARIANTS=new npx tsx bench/sync/api-during-sync.ts --no-append
 * Target: busy list p95 at most 1.5x the idle list p95 of the same variant.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import type { SyncStatus } from "../../contract/mail.ts";
import { PEOPLE } from "../../server/test/auth-fixture.ts";
import { freePort } from "../../server/test/free-port.ts";
import { type AppProcess, cpuByThread, startAppProcess } from "../mail/app-process.ts";
import {
  benchAppEnv,
  benchEmulator,
  emulatorAdmin,
  freshDatabase,
  getJson,
  signIn,
  until,
} from "../mail/bench-kit.ts";
import { type LatencySummary, latencySummary } from "../mail/latency-summary.ts";
import { machineLine, publishResults, runMain } from "./report.ts";

const COUNT = Number(process.env.BENCH_EMAILS ?? 10_000);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 15);
const HERE = path.dirname(fileURLToPath(import.meta.url));
const THIS_CHECKOUT = path.resolve(HERE, "../..");
const VARIANTS = (process.env.BENCH_VARIANTS ?? "base,new")
  .split(",")
  .filter(Boolean)
  .map((name) => ({
    name,
    dir: name === "base" ? (process.env.BENCH_BASE_DIR ?? "/work/wt/base") : THIS_CHECKOUT,
  }));
const A = PEOPLE.alex;
const B = PEOPLE.priya;
const PUSH_SECRET = randomBytes(16).toString("hex");

interface LoopDelay {
  mean: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

interface Phase extends LatencySummary {
  requests: number;
  seconds: number;
  loop: LoopDelay;
  /** Share of one core: the server's main thread and its busiest other thread. */
  mainCpu: number;
  otherCpu: number;
}

interface VariantResult {
  name: string;
  aReadySeconds: number;
  idle: Phase;
  busy: Phase;
  bSyncSeconds: number;
  bAnalysedSeconds: number;
}

/** Reads (and resets) the server's event-loop delay histogram. */
async function loopDelay(app: AppProcess, file: string): Promise<LoopDelay> {
  await rm(file, { force: true });
  process.kill(app.pid, "SIGUSR2");
  return until("loop probe", 5_000, async () => {
    const text = await readFile(file, "utf8").catch(() => "");
    return text ? (JSON.parse(text) as LoopDelay) : undefined;
  });
}

/** A's list, one request after another, until `done()` says stop; with loop delay and CPU. */
async function timeList(app: AppProcess, token: string, probe: string, done: () => boolean): Promise<Phase> {
  await loopDelay(app, probe);
  const cpuBefore = await cpuByThread(app.pid);
  const started = performance.now();
  const times: number[] = [];
  while (!done()) {
    const t = performance.now();
    const r = await fetch(`${app.url}/api/emails?limit=50`, {
      headers: { authorization: `Bearer ${token}` },
    });
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`list answered ${r.status}`);
    times.push(performance.now() - t);
  }
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = await cpuByThread(app.pid);
  const loop = await loopDelay(app, probe);
  const delta = (tid: number) => (cpuAfter.get(tid) ?? 0) - (cpuBefore.get(tid) ?? 0);
  const others = [...cpuAfter.keys()].filter((tid) => tid !== app.pid).map(delta);
  return {
    ...latencySummary(times),
    requests: times.length,
    seconds,
    loop,
    mainCpu: delta(app.pid) / seconds,
    otherCpu: Math.max(0, ...others) / seconds,
  };
}

async function synced(app: AppProcess, token: string): Promise<boolean> {
  const { accounts } = await getJson<{ accounts: SyncStatus[] }>(app, token, "/api/emails/sync-status");
  const s = accounts[0];
  if (s?.status === "error" || s?.status === "reauth_required")
    throw new Error(`sync ${s.status}: ${s.lastError}`);
  return s?.status === "idle" && (s.totalEstimate ?? 0) >= COUNT;
}

async function analysed(app: AppProcess, token: string, email: string): Promise<boolean> {
  const q = `/api/_test/ai-pending?email=${encodeURIComponent(email)}`;
  return (await getJson<{ pending: number }>(app, token, q)).pending === 0;
}

async function runVariant(variant: { name: string; dir: string }): Promise<VariantResult> {
  const database = await freshDatabase("pglite");
  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  const emulator = await benchEmulator(appUrl, PUSH_SECRET, ["gmail"]);
  const probeDir = await mkdtemp(path.join(os.tmpdir(), "mailwise-loop-probe-"));
  const probe = path.join(probeDir, "loop.json");
  const previousArgs = process.env.BENCH_APP_NODE_ARGS;
  let app: AppProcess | undefined;
  try {
    const admin = emulatorAdmin(emulator.url);
    await admin("PUT", "mail/faults", { gmailQuota: { enabled: false }, graphThrottle: { enabled: false } });
    for (const [email, seed] of [
      [A, 42],
      [B, 43],
    ] as const)
      await admin("POST", `mailboxes/${encodeURIComponent(email)}/generate`, {
        count: COUNT,
        seed,
        days: 60,
      });
    process.env.BENCH_APP_NODE_ARGS = `--import tsx --import ${path.join(HERE, "loop-delay-probe.ts")}`;
    app = await startAppProcess({
      name: `app ${variant.name}`,
      port,
      rootDir: variant.dir,
      env: { ...benchAppEnv(appUrl, emulator.url, PUSH_SECRET, database.env), LOOP_PROBE_FILE: probe },
    });
    const a = app;
    const startedA = performance.now();
    const tokenA = await signIn(a, "gmail", A);
    await until("A's sync", 60 * 60_000, async () => ((await synced(a, tokenA)) ? true : undefined));
    await until("A's analysis", 60 * 60_000, async () => ((await analysed(a, tokenA, A)) ? true : undefined));
    const aReadySeconds = (performance.now() - startedA) / 1000;
    console.log(`${variant.name}: A synced and analysed in ${aReadySeconds.toFixed(1)} s`);
    await sleep(3_000);
    // Warm-up: the first requests compile the list's statement and fill caches.
    const warmEnd = performance.now() + 2_000;
    await timeList(a, tokenA, probe, () => performance.now() > warmEnd);
    const idleEnd = performance.now() + IDLE_SECONDS * 1000;
    const idle = await timeList(a, tokenA, probe, () => performance.now() > idleEnd);
    console.log(`${variant.name}: idle list p50 ${idle.p50} p95 ${idle.p95} ms (${idle.requests} requests)`);

    const startedB = performance.now();
    const tokenB = await signIn(a, "gmail", B);
    let bSyncSeconds = Number.NaN;
    let bAnalysedSeconds = Number.NaN;
    let finished = false;
    const watcher = (async () => {
      try {
        while (!(await synced(a, tokenB))) await sleep(500);
        bSyncSeconds = (performance.now() - startedB) / 1000;
        while (!(await analysed(a, tokenB, B))) await sleep(500);
        bAnalysedSeconds = (performance.now() - startedB) / 1000;
      } finally {
        finished = true;
      }
    })();
    const busy = await timeList(a, tokenA, probe, () => finished);
    await watcher;
    console.log(
      `${variant.name}: busy list p50 ${busy.p50} p95 ${busy.p95} ms (${busy.requests} requests); B synced ${bSyncSeconds.toFixed(1)} s, analysed ${bAnalysedSeconds.toFixed(1)} s`,
    );
    return { name: variant.name, aReadySeconds, idle, busy, bSyncSeconds, bAnalysedSeconds };
  } finally {
    if (previousArgs === undefined) delete process.env.BENCH_APP_NODE_ARGS;
    else process.env.BENCH_APP_NODE_ARGS = previousArgs;
    await app?.close();
    await emulator.close();
    await database.destroy();
    await rm(probeDir, { recursive: true, force: true });
  }
}

const pct = (share: number) => `${Math.round(share * 100)}%`;

function report(results: VariantResult[], loadBefore: string): string {
  const rows = results.map((r) => {
    const ratio = r.busy.p95 / Math.max(r.idle.p95, 0.1);
    return [
      r.name,
      `${r.idle.p50} / ${r.idle.p95} ms`,
      `${r.busy.p50} / ${r.busy.p95} / ${r.busy.max} ms`,
      `x${ratio.toFixed(2)}${ratio <= 1.5 ? "" : " (over 1.5)"}`,
      `${r.idle.loop.p99} / ${r.busy.loop.p99} / ${r.busy.loop.max} ms`,
      `${pct(r.idle.mainCpu)} / ${pct(r.busy.mainCpu)}`,
      `${pct(r.busy.otherCpu)}`,
      `${r.bSyncSeconds.toFixed(1)} s / ${r.bAnalysedSeconds.toFixed(1)} s`,
    ].join(" | ");
  });
  return [
    `## Sync: the API while another person's mailbox syncs and is analysed (issue 39, PGlite, role all)`,
    "",
    `${machineLine()} · load avg at the start ${loadBefore}`,
    "",
    `bench/sync/api-during-sync.ts: two Gmail mailboxes of ${COUNT.toLocaleString("en")} generated messages in the emulator (own process); A synced and analysed, then A's list (GET /api/emails?limit=50, one client, no think time) timed ${IDLE_SECONDS} s idle, then while B signs in and B's mailbox is synced and analysed. Loop delay: the server's main thread (monitorEventLoopDelay, preloaded). CPU as a share of one core. Target: busy p95 at most 1.5x idle p95.`,
    "",
    "| variant | idle list p50 / p95 | busy list p50 / p95 / max | busy p95 / idle p95 | loop delay p99 idle / busy / busy max | main thread CPU idle / busy | busiest other thread busy | B synced / analysed |",
    "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ...rows.map((r) => `| ${r} |`),
  ].join("\n");
}

async function main(): Promise<void> {
  const loadBefore = (os.loadavg()[0] ?? 0).toFixed(1);
  const results: VariantResult[] = [];
  for (const variant of VARIANTS) results.push(await runVariant(variant));
  await publishResults(report(results, loadBefore));
}

runMain(main);
