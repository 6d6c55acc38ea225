/**
 * SEEDED variant: latency of the mail API's hot reads with 100,000 emails for one user written
 * straight in SQL (seed-mailbox.ts, no sync), over real HTTP on the embedded database. For query
 * work only; bench/mail/api-load.ts measures a mailbox built by the sync engine.
 * Run: npx tsx bench/mail/email-api-latency-seeded.ts
 * Targets: GET /api/emails p95 < 20 ms for a page of 50; GET /api/emails/stats < 10 ms.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "../../server/db/client.ts";
import { sessionFor } from "../../server/test/factories.ts";
import { startTestServer } from "../../server/test/server.ts";
import { seedBigMailbox } from "./seed-mailbox.ts";

const COUNT = Number(process.env.BENCH_EMAILS ?? 100_000);
const RUNS = 200;

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "mailwise-bench-"));
  const database = await openDatabase({ database: { kind: "pglite", dir } });
  const started = performance.now();
  const { userId } = await seedBigMailbox(database, COUNT);
  console.log(`inserted ${COUNT} emails in ${Math.round(performance.now() - started)} ms`);

  const server = await startTestServer(database, {
    DEMO_MODE: "off",
    PROVIDER_EMULATOR_URL: "http://127.0.0.1:9",
  });
  const token = await sessionFor(database.db, userId);
  const get = async (p: string) => {
    const r = await fetch(`${server.url}${p}`, { headers: { authorization: `Bearer ${token}` } });
    if (r.status !== 200) throw new Error(`${p} answered ${r.status}: ${await r.text()}`);
    return (await r.json()) as { nextCursor?: string };
  };
  // A cursor deep into the mailbox (page 200).
  let deep = "";
  for (let i = 0, cursor = ""; i < 200; i++) {
    const page = await get(`/api/emails?limit=50${cursor ? `&cursor=${cursor}` : ""}`);
    cursor = page.nextCursor ?? "";
    deep = cursor;
  }
  const cases: Array<[string, string]> = [
    ["list first page (50)", "/api/emails?limit=50"],
    ["list page 200 (cursor)", `/api/emails?limit=50&cursor=${deep}`],
    ["list unread", "/api/emails?limit=50&unread=true"],
    ["list bucket=work", "/api/emails?limit=50&bucket=work"],
    ["search 'invoice'", "/api/emails?limit=50&q=invoice"],
    ["search prefix 'trav'", "/api/emails?limit=50&q=trav"],
    ["stats", "/api/emails/stats"],
    ["action items", "/api/emails/action-items"],
  ];
  const lines = [
    `| call (${COUNT.toLocaleString("en")} emails, PGlite, HTTP) | p50 ms | p95 ms |`,
    "|---|---|---|",
  ];
  for (const [name, p] of cases) {
    for (let i = 0; i < 20; i++) await get(p);
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      await get(p);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    const at = (q: number) =>
      (times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0).toFixed(1);
    lines.push(`| ${name} | ${at(0.5)} | ${at(0.95)} |`);
  }
  console.log(lines.join("\n"));
  await server.close();
  await database.close();
  await rm(dir, { recursive: true, force: true });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
