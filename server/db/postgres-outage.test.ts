import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PEOPLE } from "../test/auth-fixture.ts";
import { expectedIds, type SyncFixture, startSyncFixture, waitUntil } from "../test/sync-fixture.ts";

/**
 * PostgreSQL trouble in the middle of work: every backend of the app's database is terminated
 * (as an administrator, a failover or a restart would) three times during a sync. The process
 * must live through it (no unhandled 'error' event from a pg client, no unhandled rejection from
 * pg-boss completing a job) and the mailbox must converge once connections come back.
 */
describe("PostgreSQL backends terminated during a sync", () => {
  let f: SyncFixture;
  let admin: pg.Client;
  const crashes: unknown[] = [];
  const onCrash = (err: unknown) => crashes.push(err);

  beforeAll(async () => {
    process.on("uncaughtException", onCrash);
    process.on("unhandledRejection", onCrash);
    f = await startSyncFixture("postgres");
    if (f.database.config.kind !== "postgres") throw new Error("expected PostgreSQL");
    admin = new pg.Client({ connectionString: f.database.config.url });
    admin.on("error", () => undefined);
    await admin.connect();
  }, 60_000);
  // Closing after the outages can take a while on a loaded runner: the job queue waits up to 30 s
  // for a sync job that was mid-backfill, then the throwaway database is dropped (once over 60 s).
  afterAll(async () => {
    process.off("uncaughtException", onCrash);
    process.off("unhandledRejection", onCrash);
    await admin?.end().catch(() => undefined);
    const closing = Date.now();
    await f?.close();
    console.info(`[outage] fixture closed in ${Date.now() - closing} ms`);
  }, 150_000);

  /** Terminates every connection to the app's database but this test's own; returns how many. */
  async function terminateAll(): Promise<number> {
    const r = await admin.query<{ n: number }>(
      `select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid()`,
    );
    return r.rows[0]?.n ?? 0;
  }

  it("lives through three rounds of pg_terminate_backend and converges", async () => {
    const email = PEOPLE.priya;
    await f.admin("POST", `mailboxes/${encodeURIComponent(email)}/generate`, {
      count: 900,
      seed: 14,
      days: 60,
    });
    // Slow pages keep the sync busy (statements in flight, transactions open) while we cut it off.
    await f.admin("PUT", "mail/faults", { latencyMs: 40 });
    const { accountId } = await f.signIn("gmail", email);
    await waitUntil(async () => ((await f.state(accountId))?.syncedCount ?? 0) >= 50, 20_000, "first page");

    let terminated = 0;
    for (let round = 0; round < 3; round++) {
      terminated += await terminateAll();
      await new Promise((r) => setTimeout(r, 400));
    }
    expect(terminated).toBeGreaterThan(0);

    await waitUntil(async () => (await f.state(accountId))?.backfillDone, 45_000, "backfill after outages");
    const expected = expectedIds(await f.mailbox(email), "gmail", 90);
    const ids = (await f.rows(accountId)).map((r) => r.providerId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids)).toEqual(expected);
    // The API still answers on fresh connections.
    const ready = await fetch(`${f.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(crashes).toEqual([]);
  }, 90_000);
});
