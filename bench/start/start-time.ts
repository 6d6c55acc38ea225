/**
 * How long `npm start` takes until the app is ready (GET /healthz answers 200 and the "Mailwise is
 * running" line is printed), old way against new in the same run (issue 39, decision 0077):
 *   (a) a fresh first start: a fresh checkout after `npm install` (no dist/, no data folder, a cold
 *       tsx cache), including the database's first initialisation;
 *   (b) a start on an existing data folder, with the build from (a) left in place.
 * "old" is a checkout of --old-ref (default dab9444, whose `npm start` is
 * `npm run build && tsx server/main.ts --role=all`); "new" is a checkout of this one's HEAD
 * (commit first). Both are temporary git worktrees under .tmp/start-bench, node_modules linked to
 * this checkout's, run alternately so both see the same load.
 *
 *   npx tsx bench/start/start-time.ts [--runs 3] [--old-ref dab9444]
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { freePort } from "../../server/test/free-port.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const WORK = path.join(ROOT, ".tmp", "start-bench");
const READY_TIMEOUT_MS = 300_000;

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    "old-ref": { type: "string", default: "dab9444" },
  },
});
const runs = Number(values.runs);

interface Variant {
  name: "old" | "new";
  dir: string;
  ref: string;
}

function git(...args: string[]): string {
  return execFileSync("git", args, { cwd: ROOT, encoding: "utf8" }).trim();
}

/** A detached worktree of `ref`, with this checkout's node_modules (as after `npm install`). */
function checkout(name: Variant["name"], ref: string): Variant {
  const dir = path.join(WORK, name);
  if (existsSync(dir)) git("worktree", "remove", "--force", dir);
  git("worktree", "add", "--detach", dir, ref);
  symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
  return { name, dir, ref: git("rev-parse", "--short", ref) };
}

/** Stops the whole process group `npm start` made (npm, sh, the build, the server, its threads). */
async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  process.kill(-child.pid, "SIGTERM");
  const timer = setTimeout(() => child.pid && process.kill(-child.pid, "SIGKILL"), 40_000);
  await exited;
  clearTimeout(timer);
  await sleep(500); // Let the server's worker threads and the emulator port go.
}

/** Runs `npm start` in the variant's checkout and returns the milliseconds until it is ready. */
async function timeStart(variant: Variant, dataDir: string, tmpDir: string): Promise<number> {
  const [port, emulatorPort] = [await freePort(), await freePort()];
  const base = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn("npm", ["start"], {
    cwd: variant.dir,
    detached: true,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      TMPDIR: tmpDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: base,
      EMULATOR_PORT: String(emulatorPort),
      DATA_DIR: dataDir,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let announced = false;
  const tail: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on("line", (line) => {
      if (line.includes(`Mailwise is running at ${base}`)) announced = true;
      tail.push(line);
      if (tail.length > 40) tail.shift();
    });
  }
  try {
    while (performance.now() - started < READY_TIMEOUT_MS) {
      if (child.exitCode !== null)
        throw new Error(`npm start exited with ${child.exitCode}:\n${tail.join("\n")}`);
      const ok = await fetch(`${base}/healthz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok && announced) return performance.now() - started;
      await sleep(25);
    }
    throw new Error(`not ready after ${READY_TIMEOUT_MS} ms:\n${tail.join("\n")}`);
  } finally {
    await stopGroup(child);
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
};
const seconds = (ms: number) => (ms / 1000).toFixed(1);

async function main(): Promise<void> {
  mkdirSync(WORK, { recursive: true });
  const loadBefore = loadavg();
  const variants = [checkout("old", values["old-ref"] ?? "dab9444"), checkout("new", "HEAD")];
  const figures: Record<string, number[]> = {};
  const record = (key: string, ms: number) => {
    figures[key] = [...(figures[key] ?? []), ms];
    console.log(`  ${key}: ${seconds(ms)} s`);
  };
  try {
    for (let run = 1; run <= runs; run++) {
      console.log(
        `run ${run}/${runs} (load ${loadavg()
          .map((l) => l.toFixed(1))
          .join(" ")})`,
      );
      const state = new Map<string, { dataDir: string; warmTmp: string }>();
      // (a) fresh: no build output, no data folder, an empty temporary folder (tsx's cache lives there).
      for (const variant of variants) {
        rmSync(path.join(variant.dir, "dist"), { recursive: true, force: true });
        const dataDir = mkdtempSync(path.join(WORK, `data-${variant.name}-`));
        rmSync(dataDir, { recursive: true });
        const warmTmp = mkdtempSync(path.join(WORK, `tmp-${variant.name}-`));
        state.set(variant.name, { dataDir, warmTmp });
        record(`${variant.name} fresh`, await timeStart(variant, dataDir, warmTmp));
      }
      // (b) existing: the same data folder and build, as a second `npm start` finds them.
      for (const variant of variants) {
        const s = state.get(variant.name);
        if (!s) continue;
        record(`${variant.name} existing`, await timeStart(variant, s.dataDir, s.warmTmp));
      }
      for (const s of state.values()) {
        rmSync(s.dataDir, { recursive: true, force: true });
        rmSync(s.warmTmp, { recursive: true, force: true });
      }
    }
  } finally {
    for (const variant of variants) git("worktree", "remove", "--force", variant.dir);
  }
  const loadAfter = loadavg();

  const row = (label: string, mode: "fresh" | "existing", target: string) => {
    const o = figures[`old ${mode}`] ?? [];
    const n = figures[`new ${mode}`] ?? [];
    const fmt = (xs: number[]) => `${seconds(median(xs))} (${xs.map(seconds).join(", ")})`;
    return `| ${label} | ${fmt(o)} | ${fmt(n)} | ${(median(o) / median(n)).toFixed(2)}x | ${target} |`;
  };
  const [oldV, newV] = variants;
  const lines = [
    `${new Date().toISOString()} · ${cpus()[0]?.model ?? "?"} · nproc ${cpus().length} · node ${process.version} · load avg before ${loadBefore.map((l) => l.toFixed(1)).join(" ")}, after ${loadAfter.map((l) => l.toFixed(1)).join(" ")}`,
    "",
    `old = ${oldV?.ref} (\`npm run build && tsx server/main.ts --role=all\`), new = ${newV?.ref} (\`npm start\`: \`node scripts/build/start.mjs\`, a stamp check, then the compiled server in the same process). Seconds from \`npm start\` until /healthz answers 200 and "Mailwise is running" is printed; median (each run), ${runs} runs, alternating old and new.`,
    "",
    "| start | old s | new s | old/new | target |",
    "| --- | --- | --- | --- | --- |",
    row("(a) fresh checkout, no data folder (web build, server compile, initdb)", "fresh", "< 20 s"),
    row("(b) existing data folder, build current", "existing", "< 5 s"),
  ];
  console.log(`\n${lines.join("\n")}`);
}

await main();
