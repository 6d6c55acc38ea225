/**
 * Push to visible: a message added in the emulator (which pushes to our webhook as Gmail's
 * Pub/Sub and Graph's change notifications do) until it is in GET /api/emails. 20 messages per
 * provider on the embedded database. Target: within 2 s.
 *
 *   npx tsx bench/sync/push-latency.ts [--no-append]
 */
import { startSyncFixture, waitUntil } from "../../server/test/sync-fixture.ts";
import { machineLine, percentile, publishResults, runMain } from "./report.ts";

const ROUNDS = Number(process.env.BENCH_PUSH_ROUNDS ?? 20);
const PEOPLE = { gmail: "sam.taylor@gmail.com", outlook: "jordan.lee@outlook.com" } as const;

async function main(): Promise<void> {
  const f = await startSyncFixture("pglite");
  const rows: string[] = [];
  try {
    for (const provider of ["gmail", "outlook"] as const) {
      const email = PEOPLE[provider];
      const enc = encodeURIComponent(email);
      await f.admin("POST", `mailboxes/${enc}/generate`, { count: 200, seed: 3, days: 20 });
      const { token, accountId } = await f.signIn(provider, email);
      await waitUntil(
        async () => {
          const state = await f.state(accountId);
          return state?.backfillDone && state.pushExpiresAt;
        },
        60_000,
        "initial sync done and watch registered",
      );
      const latencies: number[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        const subject = `push probe ${provider} ${i} ${Date.now()}`;
        const t0 = performance.now();
        await f.admin("POST", `mailboxes/${enc}/messages`, {
          from: { name: "Probe", address: "probe@example.org" },
          subject,
          text: "probe",
          labelIds: ["INBOX", "UNREAD"],
        });
        await waitUntil(
          async () => {
            const res = await fetch(`${f.url}/api/emails?limit=5`, {
              headers: { authorization: `Bearer ${token}` },
            });
            const body = (await res.json()) as { emails: Array<{ subject: string }> };
            return body.emails.some((e) => e.subject === subject);
          },
          10_000,
          "pushed message in GET /api/emails",
        );
        latencies.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, 200));
      }
      latencies.sort((a, b) => a - b);
      const line = `| ${provider} | ${ROUNDS} | ${Math.round(percentile(latencies, 0.5))} ms | ${Math.round(percentile(latencies, 0.95))} ms | ${Math.round(latencies.at(-1) ?? 0)} ms |`;
      console.log(line);
      rows.push(line);
    }
  } finally {
    await f.close();
  }
  const table = [
    "## Sync: push to visible",
    "",
    machineLine(),
    "",
    "`npx tsx bench/sync/push-latency.ts`. From adding a message in the emulator to seeing it in GET /api/emails",
    "(emulator push -> webhook -> job -> incremental sync -> row). PGlite, job polling 0.5 s. Target: within 2 s.",
    "",
    "| provider | messages | p50 | p95 | max |",
    "| --- | --- | --- | --- | --- |",
    ...rows,
  ].join("\n");
  await publishResults(table);
}

runMain(main);
