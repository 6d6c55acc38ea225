/**
 * Throughput and latency of a baseline checkout and this one, in the same run (issue 39 "Done
 * when"). For each backend (PGlite, PostgreSQL):
 *   1. the emulator with BENCH_EMAILS generated Gmail messages; the BASE server signs the person in
 *      through the OAuth pages, syncs and analyses the mailbox; its database is then copied for the
 *      new checkout, whose server migrates its copy forward as it opens it (and is left to settle);
 *   2. BENCH_PAIRS times, base then new, one server at a time on the same port and emulator:
 *      start, warm up, single-client list / search / open, the BENCH_USERS-user mixed load with
 *      archives for BENCH_MIX_SECONDS, single-client archives, stop;
 *   3. the new server once more under the mixed load with --cpu-prof, summarised as its top five
 *      self-time functions and areas (cpu-profile-summary.ts);
 * then one markdown section, old and new columns side by side, appended to bench/RESULTS.md.
 *
 *   npx tsx bench/throughput/compare.ts                        (10k messages, both backends, 3 pairs)
 *   BENCH_EMAILS=1000 BENCH_MIX_SECONDS=5 BENCH_PAIRS=2 BENCH_DB=pglite npx tsx bench/throughput/compare.ts --no-append
 * BASE_DIR: the baseline checkout (default /work/wt/e-base, a worktree of dab9444 with node_modules
 * linked: `git worktree add --detach /work/wt/e-base dab9444 && ln -s <repo>/node_modules /work/wt/e-base/`).
 * NEW_DIR: the checkout measured against it (default: the one this file is in).
 * How each checkout's server starts: `node --import tsx server/main.ts --role=all` in its folder,
 * unless the checkout has `npm start`'s launcher (scripts/build/start.mjs, decision 0077): then the
 * bench brings its build up to date once (scripts/build/prepare.ts) and starts the launcher, which
 * imports the compiled server into its own process (so the pid, RSS and profile are the server's). BENCH_NEW_ENTRY / BENCH_BASE_ENTRY name another
 * entry (a JS file relative to the checkout; "tsx": server/main.ts under tsx).
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { PEOPLE } from "../../server/test/auth-fixture.ts";
import type { BackendKind } from "../../server/test/databases.ts";
import { freePort } from "../../server/test/free-port.ts";
import {
  type AppProcess,
  compiledEntryOf,
  cpuByThread,
  machineBusySeconds,
  startAppProcess,
} from "../mail/app-process.ts";
import {
  type BenchDatabase,
  benchAppEnv,
  benchEmulator,
  freshDatabase,
  getJson,
  inboxIds,
} from "../mail/bench-kit.ts";
import { loadMixed } from "../mail/load-runner.ts";
import type { MixedPlan } from "../mail/mixed-load-client.ts";
import { machineLine, publishResults, runMain } from "../sync/report.ts";
import { monotonicUs, type ProfileWindow, readProfile, summariseProfile } from "./cpu-profile-summary.ts";
import { copyBenchDatabase, withOwnDataDir } from "./database-copy.ts";
import { analysed, generateMailbox, syncedAtLeast, syncMailbox } from "./mailbox.ts";
import {
  type BackendResult,
  type Checkout,
  renderSection,
  type ThreadProfile,
  type VariantRun,
} from "./report.ts";
import { singleClientArchive, singleClientGet } from "./single-client.ts";

const HERE = path.resolve(fileURLToPath(new URL("../..", import.meta.url)));
const BASE_DIR = path.resolve(process.env.BASE_DIR ?? "/work/wt/e-base");
const NEW_DIR = path.resolve(process.env.NEW_DIR ?? HERE);
const COUNT = Number(process.env.BENCH_EMAILS ?? 10_000);
const BACKENDS = (process.env.BENCH_DB ?? "pglite,postgres").split(",").filter(Boolean) as BackendKind[];
const PAIRS = Number(process.env.BENCH_PAIRS ?? 3);
const USERS = Number(process.env.BENCH_USERS ?? 50);
const MIX_SECONDS = Number(process.env.BENCH_MIX_SECONDS ?? 20);
const SINGLE_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
/** api-load.ts's archive variant: an archive every 8th round of each user. */
const ARCHIVE_EVERY = Number(process.env.BENCH_ARCHIVE_EVERY ?? 8);
const PROFILE = process.env.BENCH_PROFILE !== "no";
const COMMON_WORD = "meeting";
const EMAIL = PEOPLE.alex;
const PUSH_SECRET = randomBytes(16).toString("hex");

interface Variant extends Checkout {
  name: VariantRun["variant"];
  database: BenchDatabase;
}

/** The mailbox's email ids: a few to open and mark read (shared), the rest archived once each. */
interface Targets {
  token: string;
  openIds: string[];
  archiveIds: string[];
  /** Next unused archive id: shared by both variants, whose databases hold the same ids. */
  archiveNext: number;
}

function commitOf(dir: string): string {
  const git = (...args: string[]) => execFileSync("git", ["-C", dir, ...args], { encoding: "utf8" }).trim();
  try {
    const dirty = git("status", "--porcelain", "--untracked-files=no") !== "";
    return `${git("rev-parse", "--short", "HEAD")}${dirty ? "+uncommitted" : ""}`;
  } catch {
    return "unknown";
  }
}

function checkCheckout(dir: string, what: string): void {
  for (const needed of ["server/main.ts", "node_modules"])
    if (!existsSync(path.join(dir, needed)))
      throw new Error(
        `${what} checkout ${dir} has no ${needed} (see the header of bench/throughput/compare.ts)`,
      );
}

const loadAvg = () => os.loadavg()[0] ?? 0;

/** Waits (up to `seconds`) for the account's sync to be idle: write-backs and the syncs they start settle. */
async function settle(app: AppProcess, token: string, seconds: number): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    // A failed poll (the server busy past its limits) is not "idle": poll again.
    const status = await getJson<{ accounts: Array<{ status: string }> }>(
      app,
      token,
      "/api/emails/sync-status",
    ).catch(() => undefined);
    if (status?.accounts.every((a) => a.status === "idle")) return;
    await sleep(500);
  }
}

function start(variant: Variant, port: number, env: Record<string, string>, nodeArgs: string[] = []) {
  return startAppProcess({
    name: `${variant.name} ${variant.database.config.kind}`,
    port,
    env: { ...env, ...variant.database.env },
    rootDir: variant.dir,
    nodeArgs,
    ...(variant.entry ? { compiledEntry: variant.entry } : {}),
  });
}

function mixedPlan(
  app: AppProcess,
  targets: Targets,
  users: number,
  seconds: number,
  archives: boolean,
): MixedPlan {
  return {
    url: app.url,
    token: targets.token,
    users,
    seconds,
    searchWord: COMMON_WORD,
    openIds: targets.openIds,
    archiveIds: archives ? targets.archiveIds.slice(targets.archiveNext) : [],
    archiveEvery: archives ? ARCHIVE_EVERY : 0,
  };
}

/**
 * CPU of the server (all its threads) and of the whole machine from now until the returned
 * function is called, in % of one core: on a shared machine, what the server got to use.
 */
async function cpuShares(pid: number) {
  const sum = async () => [...(await cpuByThread(pid)).values()].reduce((a, b) => a + b, 0);
  const before = { app: await sum(), busy: await machineBusySeconds(), at: performance.now() };
  return async () => {
    const seconds = (performance.now() - before.at) / 1000;
    const pct = (cpuSeconds: number) => Math.round((100 * cpuSeconds) / seconds);
    return {
      appCpuPct: pct((await sum()) - before.app),
      machineBusyPct: pct((await machineBusySeconds()) - before.busy),
    };
  };
}

/** One start of one checkout's server: warm-up, single-client reads, the mixed load, single-client archives. */
async function measureVariant(
  variant: Variant,
  port: number,
  env: Record<string, string>,
  targets: Targets,
): Promise<VariantRun> {
  const load = loadAvg();
  const startedAt = performance.now();
  const app = await start(variant, port, env);
  const readySeconds = (performance.now() - startedAt) / 1000;
  try {
    const { token } = targets;
    // JIT, caches and the database's own buffers warm up before anything is timed.
    await loadMixed(mixedPlan(app, targets, Math.min(10, USERS), 3, false));
    await settle(app, token, 10);
    const list = await singleClientGet(app, token, "/api/emails?limit=50", SINGLE_SECONDS);
    const search = await singleClientGet(app, token, `/api/emails?limit=50&q=${COMMON_WORD}`, SINGLE_SECONDS);
    const openOne = targets.openIds[Math.min(100, targets.openIds.length - 1)];
    const open = await singleClientGet(app, token, `/api/emails/${openOne}`, SINGLE_SECONDS);
    const cpu = await cpuShares(app.pid);
    const mixed = await loadMixed(mixedPlan(app, targets, USERS, MIX_SECONDS, true));
    const { appCpuPct, machineBusyPct } = await cpu();
    targets.archiveNext += mixed.kinds.archive?.count ?? 0;
    const rssAfterLoadMb = Math.round(await app.rssMb());
    // The mix's write-backs (and, on the base, the account syncs each archive starts) end first.
    await settle(app, token, 30);
    const archive = await singleClientArchive(
      app,
      token,
      targets.archiveIds.slice(targets.archiveNext),
      SINGLE_SECONDS,
    );
    targets.archiveNext += archive.used;
    const run: VariantRun = {
      variant: variant.name,
      readySeconds,
      list,
      search,
      open,
      archive,
      mixed,
      rssAfterLoadMb,
      load,
      appCpuPct,
      machineBusyPct,
    };
    console.log(
      `${variant.name} ${variant.database.config.kind}: mixed ${Math.round(mixed.rps)} req/s p95 ${mixed.p95} ms, ${mixed.errors} errors` +
        ` (${Object.entries(mixed.kinds)
          .map(([k, s]) => `${k} n=${s.count} p95 ${s.p95}`)
          .join(
            ", ",
          )}); single list ${list.p95} search ${search.p95} open ${open.p95} archive ${archive.p95} ms` +
        `; app CPU ${appCpuPct}% of one core, machine busy ${machineBusyPct}% of 200%; RSS ${rssAfterLoadMb} MB; ready in ${readySeconds.toFixed(1)} s; load ${load.toFixed(1)}` +
        (mixed.errorSamples.length ? `; errors: ${mixed.errorSamples.join(" | ")}` : ""),
    );
    return run;
  } finally {
    await app.close();
  }
}

/**
 * The new server once more under the mixed load, with V8's CPU profiler on; the main thread's
 * profile and the busiest other thread's (PGlite's worker on the embedded database) summarised.
 */
async function profileNew(
  variant: Variant,
  port: number,
  env: Record<string, string>,
  targets: Targets,
): Promise<ThreadProfile[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "mailwise-cpu-prof-"));
  try {
    const app = await start(variant, port, env, ["--cpu-prof", `--cpu-prof-dir=${dir}`]);
    let window: ProfileWindow;
    try {
      await loadMixed(mixedPlan(app, targets, Math.min(10, USERS), 3, false));
      // Only the mixed load is summarised: not the server's start, the warm-up or the shutdown.
      const fromUs = monotonicUs();
      const mixed = await loadMixed(mixedPlan(app, targets, USERS, MIX_SECONDS, true));
      window = { fromUs, toUs: monotonicUs() };
      targets.archiveNext += mixed.kinds.archive?.count ?? 0;
      console.log(
        `profiled new ${variant.database.config.kind}: ${Math.round(mixed.rps)} req/s under the profiler`,
      );
    } finally {
      // The profiles are written as the process exits.
      await app.close();
    }
    // Node names them CPU.<date>.<time>.<pid>.<thread id>.<seq>.cpuprofile; thread 0 is the main one.
    const files = (await readdir(dir)).filter((f) => f.endsWith(".cpuprofile"));
    const threads = await Promise.all(
      files.map(async (f) => ({
        main: f.split(".")[4] === "0",
        summary: summariseProfile(await readProfile(path.join(dir, f)), 5, window),
      })),
    );
    const main = threads.find((t) => t.main);
    const busiestOther = threads
      .filter((t) => !t.main)
      .sort((a, b) => b.summary.busyMs - a.summary.busyMs)[0];
    return [
      ...(main ? [{ thread: "main thread", summary: main.summary }] : []),
      ...(busiestOther && busiestOther.summary.busyMs > 0
        ? [{ thread: "busiest other thread (worker)", summary: busiestOther.summary }]
        : []),
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function runBackend(backend: BackendKind, base: Checkout, next: Checkout): Promise<BackendResult> {
  const notes: string[] = [];
  const loadAtStart = loadAvg();
  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  const emulator = await benchEmulator(appUrl, PUSH_SECRET, ["gmail"]);
  // One environment (secret key included) for every start: both databases hold tokens sealed with it.
  const env = benchAppEnv(appUrl, emulator.url, PUSH_SECRET, {});
  const databases: BenchDatabase[] = [];
  try {
    await generateMailbox(emulator.url, EMAIL, COUNT);
    const baseDb = await withOwnDataDir(await freshDatabase(backend));
    databases.push(baseDb);
    const baseVariant: Variant = { ...base, name: "base", database: baseDb };
    let targets: Targets;
    {
      const app = await start(baseVariant, port, env);
      try {
        const built = await syncMailbox(app, EMAIL, COUNT);
        const ids = await inboxIds(app, built.token, COUNT);
        const openCount = Math.min(1_000, Math.floor(ids.length / 10));
        targets = {
          token: built.token,
          openIds: ids.slice(0, openCount),
          archiveIds: ids.slice(openCount),
          archiveNext: 0,
        };
        notes.push(
          `mailbox built by the base server: synced in ${built.syncSeconds.toFixed(1)} s, analysed at ${built.analysedSeconds.toFixed(1)} s; inbox ${ids.length.toLocaleString("en")} emails (${openCount} opened and marked by the mix, the rest archived once each)`,
        );
        console.log(`${backend}: ${notes.at(-1)}`);
      } finally {
        await app.close();
      }
    }
    const newDb = await copyBenchDatabase(baseDb);
    databases.push(newDb);
    const newVariant: Variant = { ...next, name: "new", database: newDb };
    {
      // First start on the copy: migrations, and whatever the new code does once with old data.
      const startedAt = performance.now();
      const app = await start(newVariant, port, env);
      try {
        const ready = (performance.now() - startedAt) / 1000;
        await syncedAtLeast(app, targets.token, 0);
        await analysed(app, targets.token, EMAIL);
        notes.push(
          `new server's first start on the copied database: ready in ${ready.toFixed(1)} s, sync idle and analysis done at ${((performance.now() - startedAt) / 1000).toFixed(1)} s`,
        );
      } finally {
        await app.close();
      }
    }

    const runs: VariantRun[] = [];
    for (let pair = 0; pair < PAIRS; pair++)
      for (const variant of [baseVariant, newVariant])
        runs.push(await measureVariant(variant, port, env, targets));
    const profile = PROFILE ? await profileNew(newVariant, port, env, targets) : [];
    notes.push(
      `archive ids used ${targets.archiveNext.toLocaleString("en")} of ${targets.archiveIds.length.toLocaleString("en")} (when they run out, the mix stops archiving: see "archives done")`,
      `load average (1 min) ${loadAtStart.toFixed(1)} at the start; at each run's start: ${runs.map((r) => `${r.variant} ${r.load.toFixed(1)}`).join(", ")}; ${loadAvg().toFixed(1)} at the end`,
    );
    return { backend, runs, profile, notes };
  } finally {
    await emulator.close();
    for (const db of databases) await db.destroy();
  }
}

async function main(): Promise<void> {
  checkCheckout(BASE_DIR, "base");
  checkCheckout(NEW_DIR, "new");
  const base: Checkout = {
    dir: BASE_DIR,
    commit: commitOf(BASE_DIR),
    entry: compiledEntryOf(BASE_DIR, process.env.BENCH_BASE_ENTRY),
  };
  const next: Checkout = {
    dir: NEW_DIR,
    commit: commitOf(NEW_DIR),
    entry: compiledEntryOf(NEW_DIR, process.env.BENCH_NEW_ENTRY),
  };
  const machine = machineLine();
  const results: BackendResult[] = [];
  for (const backend of BACKENDS) results.push(await runBackend(backend, base, next));
  await publishResults(
    renderSection({
      base,
      next,
      machine,
      emails: COUNT,
      users: USERS,
      mixSeconds: MIX_SECONDS,
      singleSeconds: SINGLE_SECONDS,
      archiveEvery: ARCHIVE_EVERY,
      pairs: PAIRS,
      results,
    }),
  );
}

runMain(main);
