/**
 * Fairness under a flood (issue 39): user B's list latency alone, then while user A fires 1,000
 * list requests at once, in the same run, for three targets of A's flood:
 *   old:     Mailwise with the gate off (API_USER_CONCURRENCY=1000, API_USER_QUEUE=100000): every
 *            request runs at once, as before the gate (dab9444 had none);
 *   new:     Mailwise with the default limits (server/http/fairness-gate.ts, decision 0079);
 *   control: B still lists on Mailwise, but A's flood goes to a bare HTTP server in another process
 *            (bare-server.ts, answers as large as a list): what the flood costs B through the
 *            machine alone, which no server design can remove.
 * Each person has a 10,000-email mailbox written in SQL (bench/mail/seed-mailbox.ts): what is
 * measured is admission, not the sync. B is one client with no think time in this process; A runs
 * in its own process (flood-client.ts) at nice BENCH_FLOOD_NICE (default 19): on this 2-core
 * machine the flood client stands in for clients on other machines, and at nice 0 its own CPU
 * raised B's p95 about 5x even in the control. B's flood window lasts from A's first request to
 * its last answer; FLOODS floods per target, B's latencies pooled.
 *
 *   npx tsx bench/fairness/flood.ts                 (BENCH_DB=pglite|postgres, default pglite)
 *   BENCH_FLOOD=1000 FLOODS=5 BENCH_FLOOD_NICE=0 npx tsx bench/fairness/flood.ts --no-append
 * Target: B's p95 during the flood at most 2x B's p95 alone.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { setPriority } from "node:os";
import { Pool } from "undici";
import { openDatabase } from "../../server/db/client.ts";
import type { BackendKind } from "../../server/test/databases.ts";
import { sessionFor } from "../../server/test/factories.ts";
import { freePort } from "../../server/test/free-port.ts";
import { startAppProcess } from "../mail/app-process.ts";
import { freshDatabase } from "../mail/bench-kit.ts";
import { latencySummary } from "../mail/latency-summary.ts";
import { seedBigMailbox } from "../mail/seed-mailbox.ts";
import { machineLine, publishResults, runMain } from "../sync/report.ts";
import type { FloodResult } from "./flood-client.ts";

const BACKEND = (process.env.BENCH_DB ?? "pglite") as BackendKind;
const EMAILS = Number(process.env.BENCH_EMAILS ?? 10_000);
const FLOOD = Number(process.env.BENCH_FLOOD ?? 1_000);
const FLOODS = Number(process.env.FLOODS ?? 3);
const ALONE_SECONDS = Number(process.env.BENCH_ALONE_SECONDS ?? 5);
const FLOOD_NICE = Number(process.env.BENCH_FLOOD_NICE ?? 19);

interface Variant {
  /** Mailwise's environment for the variant. */
  env: Record<string, string>;
  /** A floods a bare HTTP server instead of Mailwise. */
  control?: boolean;
}

const VARIANTS: Record<string, Variant> = {
  old: { env: { API_USER_CONCURRENCY: "1000", API_USER_QUEUE: "100000" } },
  new: { env: {} },
  control: { env: {}, control: true },
};

interface VariantResult {
  name: string;
  alone: number[];
  flooded: number[];
  floods: FloodResult[];
  bErrors: number;
}

function runFlood(url: string, token: string): Promise<FloodResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "bench/fairness/flood-client.ts", url, token, String(FLOOD)],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    if (FLOOD_NICE > 0 && child.pid) setPriority(child.pid, FLOOD_NICE);
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once("exit", (code) => {
      const line = out.trim().split("\n").at(-1) ?? "";
      if (code !== 0 || !line) reject(new Error(`flood client exited with ${code}: ${out}`));
      else resolve(JSON.parse(line) as FloodResult);
    });
  });
}

/** Starts bare-server.ts answering `bytes` bytes; resolves with its URL and the process. */
async function startBareServer(bytes: number): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ["--import", "tsx", "bench/fairness/bare-server.ts", String(bytes)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout?.once("data", (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once("exit", (code) => reject(new Error(`bare server exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

async function measure(
  name: string,
  variant: Variant,
  base: Record<string, string>,
  tokens: { a: string; b: string },
) {
  const port = await freePort();
  // Web role: no sync workers (the seeded accounts have no provider behind them).
  const app = await startAppProcess({
    name,
    port,
    role: "web",
    env: { ...base, ...variant.env, PUBLIC_URL: `http://127.0.0.1:${port}` },
  });
  const pool = new Pool(app.url, { connections: 1, pipelining: 1 });
  const result: VariantResult = { name, alone: [], flooded: [], floods: [], bErrors: 0 };
  const listB = async (into: number[]) => {
    const started = performance.now();
    const answer = await pool.request({
      method: "GET",
      path: "/api/emails?limit=50",
      headers: { authorization: `Bearer ${tokens.b}` },
    });
    await answer.body.arrayBuffer();
    into.push(performance.now() - started);
    if (answer.statusCode !== 200) result.bErrors += 1;
  };
  let bare: { url: string; child: ChildProcess } | undefined;
  try {
    // Warm-up: caches, prepared statements, JIT.
    for (let i = 0; i < 200; i++) await listB([]);
    if (variant.control) {
      const sample = await pool.request({
        method: "GET",
        path: "/api/emails?limit=50",
        headers: { authorization: `Bearer ${tokens.b}` },
      });
      bare = await startBareServer((await sample.body.arrayBuffer()).byteLength);
    }
    const floodUrl = bare?.url ?? app.url;
    for (let round = 0; round < FLOODS; round++) {
      const aloneUntil = performance.now() + ALONE_SECONDS * 1000;
      while (performance.now() < aloneUntil) await listB(result.alone);
      let flooding = true;
      const flood = runFlood(floodUrl, tokens.a).finally(() => {
        flooding = false;
      });
      // The flood client's process needs a moment to start: B's window opens with A's requests.
      await new Promise((resolve) => setTimeout(resolve, 600));
      while (flooding) await listB(result.flooded);
      result.floods.push(await flood);
      // A's state ages out (idleMs) before the next round of B alone.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
    }
  } finally {
    bare?.child.kill();
    await pool.close();
    await app.close();
  }
  return result;
}

const ms = (v: number) => v.toFixed(1);

async function main(): Promise<void> {
  const db = await freshDatabase(BACKEND);
  try {
    const database = await openDatabase({ database: db.config });
    const a = await seedBigMailbox(database, EMAILS);
    const b = await seedBigMailbox(database, EMAILS);
    const tokens = { a: await sessionFor(database.db, a.userId), b: await sessionFor(database.db, b.userId) };
    await database.close();
    const base = {
      ...db.env,
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      SECRET_KEY: randomBytes(32).toString("hex"),
      DEMO_MODE: "off",
      PROVIDER_EMULATOR_URL: "http://127.0.0.1:9",
    };
    const results: VariantResult[] = [];
    for (const [name, variant] of Object.entries(VARIANTS))
      results.push(await measure(name, variant, base, tokens));
    const rows = results.map((r) => {
      const alone = latencySummary(r.alone);
      const flooded = latencySummary(r.flooded);
      const sum = (k: "served" | "refused" | "failed") => r.floods.reduce((n, f) => n + f[k], 0);
      const floodSeconds = r.floods.map((f) => f.seconds.toFixed(1)).join(" / ");
      return `| ${r.name} | ${ms(alone.p50)} / ${ms(alone.p95)} | ${ms(flooded.p50)} / ${ms(flooded.p95)} (${r.flooded.length}) | **${(flooded.p95 / alone.p95).toFixed(2)}x** | ${sum("served")} / ${sum("refused")} / ${sum("failed")} | ${floodSeconds} | ${r.bErrors} | ${r.floods.flatMap((f) => f.retryAfter).join(",") || "-"} |`;
    });
    await publishResults(`## Fairness under a flood (issue 39, bench/fairness/flood.ts)

${machineLine()} · ${BACKEND} · two people with ${EMAILS.toLocaleString("en")} emails each (seeded in SQL) · ${FLOODS} floods of ${FLOOD} list requests at once by A (its client at nice ${FLOOD_NICE}), B listing (limit 50) with no think time on one connection.
old = gate off (API_USER_CONCURRENCY=1000: every request runs at once, as at dab9444); new = default limits (48 alone, 1 each while others are active, queue 200); control = B on Mailwise while A's flood goes to a bare HTTP server in another process (the machine's share).

| A's flood goes to | B alone p50 / p95 ms | B during A's flood p50 / p95 ms (requests) | B p95 ratio | A served / 429 / failed | flood seconds | B errors | Retry-After seen |
|---|---|---|---|---|---|---|---|
${rows.join("\n")}
`);
  } finally {
    await db.destroy();
  }
}

runMain(main);
