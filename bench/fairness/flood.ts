/**
 * Fairness under a flood (issue 39): user B's list latency alone, then while user A fires 1,000
 * list requests at once, on the same server in the same run, for two servers over the same data:
 *   old: the gate off (API_USER_CONCURRENCY=1000, API_USER_QUEUE=100000): every request runs at
 *        once, as before the gate (dab9444 had none);
 *   new: the default limits (server/http/fairness-gate.ts, decision 0079).
 * Each person has a 10,000-email mailbox written in SQL (bench/mail/seed-mailbox.ts): what is
 * measured is admission, not the sync. B is one client with no think time in this process; A runs
 * in its own process (flood-client.ts). B's flood window lasts from A's first request to its last
 * answer; FLOODS floods per server, B's latencies pooled.
 *
 *   npx tsx bench/fairness/flood.ts                 (BENCH_DB=pglite|postgres, default pglite)
 *   BENCH_FLOOD=1000 FLOODS=3 npx tsx bench/fairness/flood.ts --no-append
 * Target: B's p95 during the flood at most 2x B's p95 alone.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
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

const VARIANTS: Record<string, Record<string, string>> = {
  old: { API_USER_CONCURRENCY: "1000", API_USER_QUEUE: "100000" },
  new: {},
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

async function measure(name: string, env: Record<string, string>, tokens: { a: string; b: string }) {
  const port = await freePort();
  // Web role: no sync workers (the seeded accounts have no provider behind them).
  const app = await startAppProcess({
    name,
    port,
    role: "web",
    env: { ...env, PUBLIC_URL: `http://127.0.0.1:${port}` },
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
  try {
    // Warm-up: caches, prepared statements, JIT.
    for (let i = 0; i < 200; i++) await listB([]);
    for (let round = 0; round < FLOODS; round++) {
      const aloneUntil = performance.now() + ALONE_SECONDS * 1000;
      while (performance.now() < aloneUntil) await listB(result.alone);
      let flooding = true;
      const flood = runFlood(app.url, tokens.a).finally(() => {
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
    for (const [name, env] of Object.entries(VARIANTS))
      results.push(await measure(name, { ...base, ...env }, tokens));
    const rows = results.map((r) => {
      const alone = latencySummary(r.alone);
      const flooded = latencySummary(r.flooded);
      const sum = (k: "served" | "refused" | "failed") => r.floods.reduce((n, f) => n + f[k], 0);
      const floodSeconds = r.floods.map((f) => f.seconds.toFixed(1)).join(" / ");
      return `| ${r.name} | ${ms(alone.p50)} / ${ms(alone.p95)} | ${ms(flooded.p50)} / ${ms(flooded.p95)} (${r.flooded.length}) | **${(flooded.p95 / alone.p95).toFixed(2)}x** | ${sum("served")} / ${sum("refused")} / ${sum("failed")} | ${floodSeconds} | ${r.bErrors} | ${r.floods.flatMap((f) => f.retryAfter).join(",") || "-"} |`;
    });
    await publishResults(`## Fairness under a flood (issue 39, bench/fairness/flood.ts)

${machineLine()} · ${BACKEND} · two people with ${EMAILS.toLocaleString("en")} emails each (seeded in SQL) · ${FLOODS} floods of ${FLOOD} list requests at once by A, B listing (limit 50) with no think time on one connection.
old = gate off (API_USER_CONCURRENCY=1000: every request runs at once, as at dab9444); new = default limits (48 alone, 1 each while others are active, queue 200).

| server | B alone p50 / p95 ms | B during A's flood p50 / p95 ms (requests) | B p95 ratio | A served / 429 / failed | flood seconds | B errors | Retry-After seen |
|---|---|---|---|---|---|---|---|
${rows.join("\n")}
`);
  } finally {
    await db.destroy();
  }
}

runMain(main);
