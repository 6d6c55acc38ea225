/**
 * The privacy export of a big mailbox: time, bytes and peak RSS of the streamed
 * POST /api/privacy/export over real HTTP, beside the same rows read whole into memory and
 * stringified (what an export that does not stream would hold), in the same run.
 *
 *   npx tsx bench/privacy/export.ts                     (PGlite, 100,000 emails)
 *   BENCH_DB=postgres BENCH_EMAILS=20000 npx tsx bench/privacy/export.ts --no-append
 *
 * The mailbox is seeded in SQL with rows shaped like synced, analysed mail (bench/mail's seed):
 * a sync of 100,000 messages through the emulator takes far longer than the export it feeds.
 * The server, PGlite's thread and the bench share one process, so RSS covers all three; the
 * figure that matters is the growth over the RSS just before each measurement.
 */
import { eq } from "drizzle-orm";
import { emails } from "../../server/db/schema.ts";
import { type BackendKind, openTestDatabase } from "../../server/test/databases.ts";
import { sessionFor } from "../../server/test/factories.ts";
import { startTestServer } from "../../server/test/server.ts";
import { seedBigMailbox } from "../mail/seed-mailbox.ts";
import { appendResults, machineLine } from "../sync/report.ts";

const COUNT = Number(process.env.BENCH_EMAILS ?? 100_000);
const BACKEND = (process.env.BENCH_DB ?? "pglite") as BackendKind;
const MB = 1024 * 1024;

/** Samples RSS every 20 ms while `work` runs; answers its result, the time and the peak growth. */
async function measure<T>(work: () => Promise<T>): Promise<{ result: T; ms: number; peakGrowthMb: number }> {
  global.gc?.();
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const started = performance.now();
  const result = await work();
  const ms = performance.now() - started;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  return { result, ms, peakGrowthMb: (peak - base) / MB };
}

async function main(): Promise<void> {
  const database = await openTestDatabase(BACKEND);
  const seeded = performance.now();
  const { userId } = await seedBigMailbox(database.database, COUNT);
  console.log(`seeded ${COUNT} emails in ${Math.round(performance.now() - seeded)} ms`);
  const server = await startTestServer(database.database, {
    DEMO_MODE: "off",
    PROVIDER_EMULATOR_URL: "http://127.0.0.1:9",
  });
  const token = await sessionFor(database.database.db, userId);

  const streamed = await measure(async () => {
    const res = await fetch(`${server.url}/api/privacy/export`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "accept-encoding": "identity" },
    });
    if (!res.ok || !res.body) throw new Error(`export answered ${res.status}`);
    let bytes = 0;
    // Read and drop: the client must not be what holds the mailbox.
    for await (const chunk of res.body) bytes += (chunk as Uint8Array).byteLength;
    return bytes;
  });
  const buffered = await measure(async () => {
    const rows = await database.database.db.select().from(emails).where(eq(emails.userId, userId));
    return JSON.stringify(rows).length;
  });
  await server.close();
  await database.destroy();

  const line = (name: string, m: { ms: number; peakGrowthMb: number; result: number }) =>
    `| ${name} | ${(m.ms / 1000).toFixed(1)} s | ${(m.result / MB).toFixed(0)} MB | ${m.peakGrowthMb.toFixed(0)} MB |`;
  const section = `## Privacy export of ${COUNT.toLocaleString("en-US")} emails (${BACKEND})

${machineLine()}

| run | time | bytes | peak RSS growth |
|---|---|---|---|
${line("POST /api/privacy/export (streamed, read and dropped by the client)", streamed)}
${line("baseline: the same emails read whole and stringified in memory", buffered)}

Peak RSS growth, streamed / baseline: ${(streamed.peakGrowthMb / Math.max(1, buffered.peakGrowthMb)).toFixed(2)}.
`;
  console.log(section);
  if (!process.argv.includes("--no-append")) await appendResults(section);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
