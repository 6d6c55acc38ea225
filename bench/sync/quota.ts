/**
 * Initial sync under Gmail's per-user quota: how close a 10,000-message sync gets to the
 * shortest time the quota allows. Every message costs at least one messages.get (5 units) and
 * the listing at least one messages.list (5 units) per 500 ids, so no client can finish faster
 * than (5 * N + 5 * ceil(N / 500)) / unitsPerMinute minutes. Target: within 10% of that.
 *
 *   npx tsx bench/sync/quota.ts                     (10,000 messages, 15,000 units a minute)
 *   BENCH_QUOTA_MESSAGES=3000 npx tsx bench/sync/quota.ts --no-append
 */
import { eq, sql } from "drizzle-orm";
import { emails } from "../../server/db/schema.ts";
import { startSyncFixture, waitUntil } from "../../server/test/sync-fixture.ts";
import { appendResults, machineLine } from "./report.ts";

const N = Number(process.env.BENCH_QUOTA_MESSAGES ?? 10_000);
const UNITS_PER_MINUTE = Number(process.env.BENCH_QUOTA_UNITS ?? 15_000);
const EMAIL = "priya.shah@gmail.com";

async function main(): Promise<void> {
  const f = await startSyncFixture("pglite", {
    SYNC_DEPTH_DAYS: "3650",
    GMAIL_UNITS_PER_MINUTE: String(UNITS_PER_MINUTE),
  });
  try {
    await f.admin("PUT", "mail/faults", { gmailQuota: { enabled: true, unitsPerMinute: UNITS_PER_MINUTE } });
    const enc = encodeURIComponent(EMAIL);
    const generated = await f.admin("POST", `mailboxes/${enc}/generate`, { count: N, seed: 9, days: 60 });
    if (generated.status >= 300) throw new Error(`generate failed: ${generated.text}`);
    const started = performance.now();
    const { accountId } = await f.signIn("gmail", EMAIL);
    const db = f.database.database.db;
    const countRows = async () =>
      (
        await db.select({ n: sql<number>`count(*)::int` }).from(emails).where(eq(emails.accountId, accountId))
      )[0]?.n ?? 0;
    await waitUntil(
      async () => (await f.state(accountId))?.backfillDone === true && (await countRows()) >= N,
      20 * 60_000,
      "quota-limited backfill",
    );
    const seconds = (performance.now() - started) / 1000;
    const synced = await countRows();
    if (synced !== N) throw new Error(`synced ${synced}, expected ${N}`);
    const minUnits = 5 * N + 5 * Math.ceil(N / 500);
    const minSeconds = (minUnits / UNITS_PER_MINUTE) * 60;
    const over = (seconds / minSeconds - 1) * 100;
    const table = [
      "## Sync: initial sync under Gmail's quota",
      "",
      machineLine(),
      "",
      "`npx tsx bench/sync/quota.ts`. Emulator enforces the per-user units a minute with Gmail's method costs;",
      "our per-account limiter spends at most the same rate. Minimum = (5 units per message + 5 per list page of 500) / rate.",
      "Target: within 10% of the minimum.",
      "",
      "| messages | units/minute | minimum the quota allows | measured | over the minimum |",
      "| --- | --- | --- | --- | --- |",
      `| ${N.toLocaleString("en")} | ${UNITS_PER_MINUTE.toLocaleString("en")} | ${minSeconds.toFixed(1)} s | ${seconds.toFixed(1)} s | ${over.toFixed(1)}% |`,
    ].join("\n");
    if (!process.argv.includes("--no-append")) await appendResults(table);
    console.log(table);
  } finally {
    await f.close();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
