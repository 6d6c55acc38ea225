/**
 * SEEDED variant: the mail API under concurrent load (autocannon) on 100,000 emails for one user
 * written straight in SQL (seed-mailbox.ts), beside a static-JSON route of the same server in the
 * same run (GET /healthz) as the baseline. Rows inserted in SQL skip everything sync does (the
 * planner statistics it leaves, dead rows, real message text), so these figures are NOT what a
 * synced mailbox gets: api-load.ts builds its mailbox through the emulator and the sync engine and
 * is the benchmark of record. This one stays for quick query-plan work at 100k without a sync.
 *
 *   npx tsx bench/mail/api-load-seeded.ts                 (PGlite and PostgreSQL)
 *   BENCH_DB=postgres BENCH_EMAILS=20000 npx tsx bench/mail/api-load-seeded.ts --no-append
 * Targets: GET /api/emails (page of 50) p95 < 20 ms; GET /api/emails/stats p95 < 10 ms.
 * The load generator runs in its own process (load-client.ts) and records every response time,
 * so the percentiles are exact and its own work does not slow the measured server's event loop.
 */
import { type BackendKind, openTestDatabase } from "../../server/test/databases.ts";
import { sessionFor } from "../../server/test/factories.ts";
import { startTestServer } from "../../server/test/server.ts";
import { machineLine, publishResults, runMain } from "../sync/report.ts";
import { loadUrl, type MeasuredCall, measureRounds } from "./load-runner.ts";
import { seedBigMailbox } from "./seed-mailbox.ts";

const COUNT = Number(process.env.BENCH_EMAILS ?? 100_000);
const BACKENDS = (process.env.BENCH_DB ?? "pglite,postgres").split(",") as BackendKind[];
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
/** Measured rounds per call after the warm-up: one round's p95 moves from run to run. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

interface Line extends MeasuredCall {
  backend: BackendKind;
  name: string;
}

/** What Chromium sends: the server then compresses (brotli) every answer over 1 KB. */
const BROWSER_ENCODINGS = "gzip, deflate, br, zstd";

const load = (url: string, token: string | undefined, acceptEncoding?: string) =>
  loadUrl(url, { connections: CONNECTIONS, seconds: SECONDS, token, acceptEncoding });

async function runBackend(backend: BackendKind): Promise<Line[]> {
  const t = await openTestDatabase(backend);
  try {
    const db = t.database.db;
    const { userId } = await seedBigMailbox(t.database, COUNT);
    const server = await startTestServer(t.database, {
      DEMO_MODE: "off",
      PROVIDER_EMULATOR_URL: "http://127.0.0.1:9",
    });
    try {
      const token = await sessionFor(db, userId);
      const cases: Array<[string, string, string | undefined, string?]> = [
        ["static JSON baseline (GET /healthz)", "/healthz", undefined],
        ["GET /api/emails?limit=50", "/api/emails?limit=50", token],
        ["GET /api/emails?limit=50&bucket=work", "/api/emails?limit=50&bucket=work", token],
        ["GET /api/emails/stats", "/api/emails/stats", token],
        [
          "GET /api/emails?limit=50, compressed as for a browser",
          "/api/emails?limit=50",
          token,
          BROWSER_ENCODINGS,
        ],
      ];
      const lines: Line[] = [];
      for (const [name, path, auth, encodings] of cases) {
        const measured = await measureRounds(() => load(`${server.url}${path}`, auth, encodings), ROUNDS);
        const line: Line = { backend, name, ...measured };
        console.log(
          `${backend} ${name}: ${Math.round(line.rps)} req/s, p50 ${line.p50} p95 ${line.p95} (rounds ${line.p95s.join(", ")}) p99 ${line.p99} max ${line.max} ms, errors ${line.errors}`,
        );
        lines.push(line);
      }
      return lines;
    } finally {
      await server.close();
    }
  } finally {
    await t.destroy();
  }
}

async function main(): Promise<void> {
  const all: Line[] = [];
  for (const backend of BACKENDS) all.push(...(await runBackend(backend)));
  const table = [
    `## Mail API under load, SEEDED mailbox (rows inserted in SQL, not synced; autocannon, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s per call)`,
    "",
    machineLine(),
    "",
    `\`npx tsx bench/mail/api-load-seeded.ts\`. ${COUNT.toLocaleString("en")} emails for one user inserted in SQL, as wide as synced and analysed mail`,
    "(bench/mail/seed-mailbox.ts); the static-JSON route of the same server is the baseline of each run. Latency in ms",
    "from every response, measured by a client in its own process. After a warm-up round, each call is measured in",
    `${ROUNDS} rounds: the row shows the round with the median p95, and "p95 of each round" all of them.`,
    "Targets: list page of 50 p95 < 20 ms; stats p95 < 10 ms.",
    "",
    "| backend | call | req/s | p50 | p95 | p95 of each round | p99 | max | errors |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...all.map(
      (l) =>
        `| ${l.backend} | ${l.name} | ${Math.round(l.rps)} | ${l.p50} | ${l.p95} | ${l.p95s.join(", ")} | ${l.p99} | ${l.max} | ${l.errors} |`,
    ),
  ].join("\n");
  await publishResults(table);
}

runMain(main);
