/**
 * The real server (`server/main.ts`) in a process of its own, as `npm start` runs it, for
 * benchmarks that must not share an event loop or a heap with the server they measure.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { SERVER_ENV, SERVER_NODE_FLAGS } from "../../scripts/build/server-flags.mjs";

export interface AppProcess {
  url: string;
  pid: number;
  /** Resident memory of the server process and its descendants, in MB (Linux /proc). */
  rssMb(): Promise<number>;
  /** SIGTERM, then wait for the process to leave (it closes its database first). */
  close(): Promise<void>;
}

/** BENCH_READY_TIMEOUT_MS: longer on a machine shared with many other jobs. */
const READY_TIMEOUT_MS = Number(process.env.BENCH_READY_TIMEOUT_MS ?? 180_000);

async function rssKb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0);
}

async function childrenOf(pid: number): Promise<number[]> {
  const tasks = await readdir(`/proc/${pid}/task`).catch(() => []);
  const out: number[] = [];
  for (const task of tasks) {
    const text = await readFile(`/proc/${pid}/task/${task}/children`, "utf8").catch(() => "");
    for (const child of text.split(/\s+/).filter(Boolean)) out.push(Number(child));
  }
  return out;
}

/** Resident memory of a process and everything it started (tsx's esbuild service, say). */
export async function treeRssMb(pid: number): Promise<number> {
  let kb = 0;
  const queue = [pid];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    kb += await rssKb(next);
    queue.push(...(await childrenOf(next)));
  }
  return kb / 1024;
}

/**
 * How the server is started, relative to its checkout: `--import tsx server/main.ts`, which every
 * checkout since the first has, unless the caller names a compiled entry (a JS file). A compiled
 * entry is only as fresh as its last build, so it is never picked on its own.
 */
export function serverEntryArgs(compiledEntry?: string): string[] {
  // A compiled server starts as `npm start` starts it: with the server's node flags.
  return compiledEntry ? [...SERVER_NODE_FLAGS, compiledEntry] : ["--import", "tsx", "server/main.ts"];
}

const LAUNCHER = "scripts/build/start.mjs";
const PREPARE = "scripts/build/prepare.ts";

/**
 * The compiled entry to start a checkout with, as `npm start` does, or undefined for
 * server/main.ts under tsx (a checkout from before the compiled server, decision 0077). The
 * launcher rebuilds whatever is stale before it starts the server; building here first keeps
 * that build out of a timed start. `override` "tsx" forces the TypeScript loader.
 */
export function compiledEntryOf(dir: string, override?: string): string | undefined {
  if (override) return override === "tsx" ? undefined : override;
  if (!existsSync(path.join(dir, LAUNCHER)) || !existsSync(path.join(dir, PREPARE))) return undefined;
  console.log(`${dir}: bringing the compiled server and the web build up to date (${PREPARE})`);
  execFileSync(process.execPath, ["--import", "tsx", PREPARE], { cwd: dir, stdio: "inherit" });
  return LAUNCHER;
}

/**
 * Starts `node --import tsx server/main.ts --role=<role>` with `env` added to ours and resolves
 * once /readyz answers 200. Warnings and errors the server logs are echoed with a prefix.
 */
export async function startAppProcess(opts: {
  name: string;
  port: number;
  env: Record<string, string>;
  role?: "all" | "web" | "worker";
  /** Checkout whose server to start (another worktree, for a same-run baseline); default this one. */
  rootDir?: string;
  /** Node options for this process only (--cpu-prof ...), added to BENCH_APP_NODE_ARGS. */
  nodeArgs?: string[];
  /** A compiled server entry (JS, relative to the checkout) instead of server/main.ts under tsx. */
  compiledEntry?: string;
}): Promise<AppProcess> {
  const url = `http://127.0.0.1:${opts.port}`;
  const child: ChildProcess = spawn(
    process.execPath,
    // BENCH_APP_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles the app itself.
    [
      ...(process.env.BENCH_APP_NODE_ARGS?.split(" ").filter(Boolean) ?? []),
      ...(opts.nodeArgs ?? []),
      ...serverEntryArgs(opts.compiledEntry),
      `--role=${opts.role ?? "all"}`,
    ],
    {
      // A compiled server also gets the environment `npm start` sets (glibc's malloc tunables).
      env: {
        ...process.env,
        ...(opts.compiledEntry ? SERVER_ENV : {}),
        ...opts.env,
        HOST: "127.0.0.1",
        PORT: String(opts.port),
      },
      stdio: ["ignore", "pipe", "pipe"],
      ...(opts.rootDir ? { cwd: opts.rootDir } : {}),
    },
  );
  for (const stream of [child.stdout, child.stderr]) {
    if (stream)
      createInterface({ input: stream }).on("line", (line) => console.log(`  [${opts.name}] ${line}`));
  }
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${opts.name} exited with ${child.exitCode} before ready`);
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`${opts.name} was not ready at ${url} within ${READY_TIMEOUT_MS / 1000} s`);
    }
    await sleep(200);
  }
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${opts.name} has no pid`);
  return {
    url,
    pid,
    rssMb: () => treeRssMb(pid),
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const killer = setTimeout(() => child.kill("SIGKILL"), 40_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux x86-64). */
const TICKS = 100;

function cpuSecondsOf(stat: string): number {
  const close = stat.lastIndexOf(")");
  if (close < 0) return 0;
  const fields = stat
    .slice(close + 2)
    .split(" ")
    .map(Number);
  // Fields 14 and 15 of stat (utime, stime) are the 12th and 13th after the name.
  return ((fields[11] ?? 0) + (fields[12] ?? 0)) / TICKS;
}

/**
 * CPU seconds a process has used, by thread id (Node names every thread "node": the main thread's
 * id is the pid; on PGlite the busiest other one is the database's worker thread).
 */
export async function cpuByThread(pid: number): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  const tasks = await readdir(`/proc/${pid}/task`).catch(() => []);
  for (const task of tasks) {
    const stat = await readFile(`/proc/${pid}/task/${task}/stat`, "utf8").catch(() => "");
    if (stat) out.set(Number(task), cpuSecondsOf(stat));
  }
  return out;
}

/** CPU seconds used by every process whose command line contains `needle` (PostgreSQL backends of one database). */
export async function cpuOfProcessesMatching(needle: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const cmd = await readFile(`/proc/${entry}/cmdline`, "utf8").catch(() => "");
    if (!cmd.includes(needle)) continue;
    total += cpuSecondsOf(await readFile(`/proc/${entry}/stat`, "utf8").catch(() => ""));
  }
  return total;
}

/** CPU seconds the whole machine has been busy (all cores, everything but idle and iowait). */
export async function machineBusySeconds(): Promise<number> {
  const first = (await readFile("/proc/stat", "utf8")).split("\n")[0] ?? "";
  const values = first.trim().split(/\s+/).slice(1).map(Number);
  const total = values.slice(0, 8).reduce((a, b) => a + b, 0);
  const idle = (values[3] ?? 0) + (values[4] ?? 0);
  return (total - idle) / TICKS;
}

/** Pids of this process's direct children whose command line contains `needle`. */
export async function ownChildren(needle: string): Promise<number[]> {
  const out: number[] = [];
  for (const pid of await childrenOf(process.pid)) {
    const cmd = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "");
    if (cmd.includes(needle)) out.push(pid);
  }
  return out;
}
