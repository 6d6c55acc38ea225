/**
 * The mail API under concurrent load (autocannon), 100,000 emails for one user, beside a
 * static-JSON route of the same server in the same run (GET /healthz) as the baseline.
 *
 *   npx tsx bench/mail/api-load.ts                 (PGlite and PostgreSQL)
 *   BENCH_DB=postgres BENCH_EMAILS=20000 npx tsx bench/mail/api-load.ts --no-append
 * Targets: GET /api/emails (page of 50) p95 < 20 ms; GET /api/emails/stats p95 < 10 ms.
 * autocannon reports p90 and p97.5, not p95: p97.5 is shown as the upper bound of p95.
 */
import autocannon from "autocannon";
import { type BackendKind, openTestDatabase } from "../../server/test/databases.ts";
import { sessionFor } from "../../server/test/factories.ts";
import { startTestServer } from "../../server/test/server.ts";
import { appendResults, machineLine } from "../sync/report.ts";
import { seedBigMailbox } from "./seed-mailbox.ts";

const COUNT = Number(process.env.BENCH_EMAILS ?? 100_000);
const BACKENDS = (process.env.BENCH_DB ?? "pglite,postgres").split(",") as BackendKind[];
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);

interface Line {
  backend: BackendKind;
  name: string;
  rps: number;
  p50: number;
  p90: number;
  p975: number;
  p99: number;
  errors: number;
}

async function load(url: string, token: string | undefined): Promise<autocannon.Result> {
  return autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
}

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
      const cases: Array<[string, string, string | undefined]> = [
        ["static JSON baseline (GET /healthz)", "/healthz", undefined],
        ["GET /api/emails?limit=50", "/api/emails?limit=50", token],
        ["GET /api/emails?limit=50&bucket=work", "/api/emails?limit=50&bucket=work", token],
        ["GET /api/emails/stats", "/api/emails/stats", token],
      ];
      const lines: Line[] = [];
      for (const [name, path, auth] of cases) {
        await load(`${server.url}${path}`, auth); // warm-up round, discarded
        const r = await load(`${server.url}${path}`, auth);
        const line: Line = {
          backend,
          name,
          rps: r.requests.average,
          p50: r.latency.p50,
          p90: r.latency.p90,
          p975: r.latency.p97_5,
          p99: r.latency.p99,
          errors: r.errors + r.non2xx,
        };
        console.log(
          `${backend} ${name}: ${Math.round(line.rps)} req/s, p50 ${line.p50} p90 ${line.p90} p97.5 ${line.p975} p99 ${line.p99} ms, errors ${line.errors}`,
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
    `## Mail API under load (autocannon, ${CONNECTIONS} connections, ${SECONDS} s per row)`,
    "",
    machineLine(),
    "",
    `\`npx tsx bench/mail/api-load.ts\`. ${COUNT.toLocaleString("en")} emails for one user; the static-JSON route of the same`,
    "server is the baseline of each run. Latency in ms; p97.5 bounds p95 from above (autocannon has no p95).",
    "Targets: list page of 50 p95 < 20 ms; stats p95 < 10 ms.",
    "",
    "| backend | call | req/s | p50 | p90 | p97.5 (>= p95) | p99 | errors |",
    "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ...all.map(
      (l) =>
        `| ${l.backend} | ${l.name} | ${Math.round(l.rps)} | ${l.p50} | ${l.p90} | ${l.p975} | ${l.p99} | ${l.errors} |`,
    ),
  ].join("\n");
  if (!process.argv.includes("--no-append")) await appendResults(table);
  console.log(table);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
