import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { syncJobExpirySeconds } from "../jobs/sync-jobs.ts";
import { PEOPLE } from "../test/auth-fixture.ts";
import { expectedIds, type SyncFixture, startSyncFixture, waitUntil } from "../test/sync-fixture.ts";
import { startWorkerCluster, type WorkerCluster } from "../test/worker-cluster.ts";
import type { WorkerProcess } from "../test/worker-process.ts";

/** Short, so the test runs in seconds; the production default is 60 s. */
const LEASE_SECONDS = 5;
/** What the issue allows between the kill and the other worker carrying on. */
const TAKEOVER_BUDGET_MS = (LEASE_SECONDS + 10) * 1000;

function pidOf(owner: string | null | undefined): number | undefined {
  const pid = Number(owner?.split(":")[1]);
  return Number.isInteger(pid) ? pid : undefined;
}

/**
 * Issue 14, "Workers that die": two worker processes share one PostgreSQL database; the one
 * holding an account's lease in the middle of its backfill is killed with SIGKILL (no shutdown,
 * no lease release, its pg-boss job left active). The other must carry the backfill on within
 * the lease plus 10 s (not at its next 60 s poll), the mailbox must converge, and the dead
 * process's jobs must stop counting as active once the sync queues' expiry (lease + margin) passes.
 */
describe("a worker killed with SIGKILL in the middle of a backfill", () => {
  let f: SyncFixture;
  let cluster: WorkerCluster;
  let admin: pg.Client;
  let workers: WorkerProcess[];

  beforeAll(async () => {
    // The app in this process only serves HTTP (sign-in, webhooks); the two workers do the syncing.
    f = await startSyncFixture("postgres", { SYNC_LEASE_SECONDS: String(LEASE_SECONDS) }, { role: "web" });
    // The production poll: without the takeover, the survivor would resume the account only here.
    cluster = await startWorkerCluster(f, { env: { SYNC_POLL_SECONDS: "60" } });
    ({ admin, workers } = cluster);
  }, 90_000);

  afterAll(async () => {
    await cluster?.close();
    await f?.close();
  }, 60_000);

  it("the other worker carries the backfill on within the lease + 10 s and the mailbox converges", async () => {
    const email = PEOPLE.priya;
    await f.admin("POST", `mailboxes/${encodeURIComponent(email)}/generate`, {
      count: 900,
      seed: 22,
      days: 60,
    });
    // Slow provider answers keep the backfill going for several seconds.
    await f.admin("PUT", "mail/faults", { latencyMs: 60, provider: "google" });
    const { accountId } = await f.signIn("gmail", email);

    const held = await waitUntil(
      async () => {
        const s = await f.state(accountId);
        if (!s?.leaseOwner?.startsWith("backfill:") || s.syncedCount < 100 || s.backfillDone)
          return undefined;
        const victim = workers.find((w) => w.child.pid === pidOf(s.leaseOwner));
        return victim ? { victim, owner: s.leaseOwner } : undefined;
      },
      30_000,
      "a worker process holding the lease mid-backfill",
    );
    const killedAt = Date.now();
    held.victim.child.kill("SIGKILL");
    await held.victim.exited;
    const survivor = workers.find((w) => w !== held.victim);
    if (!survivor) throw new Error("no survivor");
    const atKill = await f.state(accountId);
    expect(atKill?.backfillDone).toBe(false);
    // The dead process's jobs (and perhaps a short one of the survivor's) as they are now.
    const active = await admin.query<{ id: string }>(
      "select id from pgboss.job where state = 'active' and name like 'sync.%'",
    );
    expect(active.rows.length).toBeGreaterThan(0);

    // Carried on: pages stored again (only the survivor is left to store them).
    await waitUntil(
      async () => {
        const s = await f.state(accountId);
        return (s?.syncedCount ?? 0) > (atKill?.syncedCount ?? 0) || s?.backfillDone;
      },
      TAKEOVER_BUDGET_MS + 15_000,
      "the survivor to carry the backfill on",
    ).catch((err: Error) => {
      throw new Error(`${err.message}; the survivor's log ends:\n${survivor.lines.slice(-20).join("\n")}`);
    });
    const takeoverMs = Date.now() - killedAt;
    expect(takeoverMs, "ms from the kill to the survivor's next stored page").toBeLessThan(
      TAKEOVER_BUDGET_MS,
    );

    await waitUntil(async () => (await f.state(accountId))?.backfillDone, 40_000, "the backfill to finish");
    const expected = expectedIds(await f.mailbox(email), "gmail", 90);
    const ids = (await f.rows(accountId)).map((r) => r.providerId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids)).toEqual(expected);
    expect(survivor.child.exitCode).toBeNull();

    // Sync jobs expire with the lease, not after pg-boss's 15 minutes: queue maintenance fails the
    // killed process's jobs instead of leaving them active.
    const expiries = await admin.query<{ seconds: number }>(
      "select distinct extract(epoch from expire_in)::int as seconds from pgboss.job where name like 'sync.%'",
    );
    expect(expiries.rows.map((r) => r.seconds)).toEqual([syncJobExpirySeconds(LEASE_SECONDS)]);
    const ids0 = active.rows.map((r) => r.id);
    await waitUntil(
      async () => {
        const still = await admin.query(
          "select 1 from pgboss.job where state = 'active' and id = any($1::uuid[])",
          [ids0],
        );
        return still.rows.length === 0;
      },
      (syncJobExpirySeconds(LEASE_SECONDS) + 15) * 1000,
      "the killed worker's jobs to expire",
    );
  }, 120_000);
});
