import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendEmailAnswerSchema } from "../../../contract/outbox.ts";
import { PEOPLE } from "../../test/auth-fixture.ts";
import { callApi } from "../../test/slow-provider.ts";
import { type SyncFixture, startSyncFixture, waitUntil } from "../../test/sync-fixture.ts";
import { startWorkerCluster, type WorkerCluster } from "../../test/worker-cluster.ts";
import type { WorkerProcess } from "../../test/worker-process.ts";

/** A claim's lease: longer than the slowed send below, short so the takeover comes in seconds. */
const LEASE_SECONDS = 8;
const MAILS = 200;
const DOWNTIME_MAILS = 20;

/**
 * The due-action mechanism runs each action exactly once (issues 36 and 37, decisions 0069 and
 * 0073): with two worker processes (the real server, --role=worker) on one throwaway PostgreSQL
 * database, after a kill -9 of a worker while it runs, and after downtime. The effect is the
 * cheapest real kind, a held mail made through the API; what counts is what reached the
 * recipient's mailbox at the emulator. The app in this process only serves HTTP.
 */
describe("due actions with worker processes on PostgreSQL", () => {
  let f: SyncFixture;
  let cluster: WorkerCluster;
  let admin: pg.Client;
  let workers: WorkerProcess[];
  let token: string;

  beforeAll(async () => {
    f = await startSyncFixture(
      "postgres",
      { DUE_ACTION_LEASE_SECONDS: String(LEASE_SECONDS), GMAIL_UNITS_PER_MINUTE: "1000000" },
      { role: "web" },
    );
    ({ token } = await f.signIn("gmail", PEOPLE.alex));
    cluster = await startWorkerCluster(f);
    ({ admin, workers } = cluster);
  }, 180_000);

  afterAll(async () => {
    await cluster?.close();
    await f?.close();
  }, 60_000);

  /** How many copies of each subject reached Priya. */
  async function deliveries(prefix: string): Promise<Map<string, number>> {
    const r = await f.admin(
      "GET",
      `mailboxes/${encodeURIComponent(PEOPLE.priya)}?limit=1000&provider=google`,
    );
    const counts = new Map<string, number>();
    for (const m of (r.json as { messages: Array<{ subject: string }> }).messages) {
      if (m.subject.startsWith(prefix)) counts.set(m.subject, (counts.get(m.subject) ?? 0) + 1);
    }
    return counts;
  }

  async function hold(subject: string): Promise<string> {
    const r = await callApi(f, "POST", "/api/emails/send", token, {
      to: PEOPLE.priya,
      subject,
      body: subject,
    });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    return sendEmailAnswerSchema.parse(r.json).outboxId;
  }

  it(`two workers, ${MAILS} due actions (held mails) due at the same moment: ${MAILS} deliveries, 0 duplicates`, async () => {
    // Held for 30 s while they are written, then all made due at one moment.
    await callApi(f, "PATCH", "/api/settings/mail", token, { sendDelaySeconds: 30 });
    const prefix = `Batch ${Date.now()}`;
    const ids: string[] = [];
    for (let i = 0; i < MAILS; i += 20) {
      const chunk = Array.from({ length: Math.min(20, MAILS - i) }, (_, j) => hold(`${prefix} #${i + j}`));
      ids.push(...(await Promise.all(chunk)));
    }
    const due = await admin.query("update due_actions set run_at = now() where id = any($1::uuid[])", [ids]);
    expect(due.rowCount).toBe(MAILS);
    await waitUntil(
      async () => {
        const done = await admin.query(
          "select count(*)::int as n from due_actions where id = any($1::uuid[]) and status = 'done'",
          [ids],
        );
        return (done.rows[0] as { n: number }).n === MAILS;
      },
      150_000,
      `all ${MAILS} held mails sent`,
    );
    const counts = await deliveries(prefix);
    expect(counts.size).toBe(MAILS);
    expect([...counts.values()].filter((n) => n !== 1)).toEqual([]);
    // Runs that failed (throttling under the burst) were retried; none sent twice.
    const attempts = await admin.query(
      "select attempts, count(*)::int as n from due_actions where id = any($1::uuid[]) group by attempts",
      [ids],
    );
    console.info("held mail attempts (attempts: mails)", attempts.rows);
  }, 240_000);

  it("kill -9 of the worker while the action runs: after the restart nothing lost, nothing twice", async () => {
    await callApi(f, "PATCH", "/api/settings/mail", token, { sendDelaySeconds: 5 });
    // The emulator takes the mail only after 3 s: the worker is killed while it waits.
    await f.admin("PUT", "mail/faults", { latencyMs: 3_000, provider: "google" });
    const subject = `Killed ${Date.now()}`;
    const id = await hold(subject);
    const owner = await waitUntil(
      async () => {
        const r = await admin.query("select status, locked_by from due_actions where id = $1", [id]);
        const row = r.rows[0] as { status: string; locked_by: string | null } | undefined;
        return row?.status === "running" && row.locked_by ? row.locked_by : undefined;
      },
      30_000,
      "a worker sending the held mail",
    );
    const victim = workers.find((w) => String(w.child.pid) === owner.split(".")[0]);
    if (!victim) throw new Error(`no worker with claim ${owner}`);
    // Killed once the send is at the provider: a claimed run is still reading its account and
    // building the mail for a moment, and a kill then would send nothing at all.
    await waitUntil(
      async () => {
        const r = await f.admin("GET", "mail/faults");
        return (r.json as { delayed: string[] }).delayed.some((call) => call.endsWith("/messages/send"));
      },
      15_000,
      "the send in flight at the provider",
    );
    victim.child.kill("SIGKILL");
    await victim.exited;
    // The provider still takes the mail the dead worker sent; nothing marked it done.
    await waitUntil(async () => (await deliveries(subject)).get(subject) === 1, 15_000, "the delivery");
    await f.admin("POST", "mail/faults/reset");
    await cluster.start("worker-restarted");
    // After the lease, a worker takes it over, finds the Message-ID at Gmail and sends nothing.
    await waitUntil(
      async () => {
        const r = await admin.query("select status, attempts from due_actions where id = $1", [id]);
        const row = r.rows[0] as { status: string; attempts: number } | undefined;
        return row?.status === "done" ? row : undefined;
      },
      (LEASE_SECONDS + 20) * 1000,
      "the takeover",
    );
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect((await deliveries(subject)).get(subject)).toBe(1);
    const row = await admin.query("select attempts from due_actions where id = $1", [id]);
    expect((row.rows[0] as { attempts: number }).attempts).toBe(2);
  }, 120_000);

  it("downtime: actions whose time passed while no worker ran all run at the next start, once", async () => {
    await cluster.stopAll();
    // A fresh Gmail quota minute: the sends are not throttled by the tests before.
    await f.admin("POST", "mail/faults/reset");
    await callApi(f, "PATCH", "/api/settings/mail", token, { sendDelaySeconds: 30 });
    const prefix = `Downtime ${Date.now()}`;
    const ids = await Promise.all(Array.from({ length: DOWNTIME_MAILS }, (_, i) => hold(`${prefix} #${i}`)));
    // Their time passed an hour ago, while nothing swept.
    await admin.query(
      "update due_actions set run_at = now() - interval '1 hour' where id = any($1::uuid[])",
      [ids],
    );
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect((await deliveries(prefix)).size).toBe(0);
    const started = Date.now();
    await cluster.start("worker-after-downtime");
    await waitUntil(
      async () => {
        const done = await admin.query(
          "select count(*)::int as n from due_actions where id = any($1::uuid[]) and status = 'done'",
          [ids],
        );
        return (done.rows[0] as { n: number }).n === DOWNTIME_MAILS;
      },
      60_000,
      "the overdue actions to run at start",
    );
    const counts = await deliveries(prefix);
    expect(counts.size).toBe(DOWNTIME_MAILS);
    expect([...counts.values()].filter((n) => n !== 1)).toEqual([]);
    // Each records when it ran: after the start, never before.
    const ran = await admin.query(
      "select min(done_at) as first from due_actions where id = any($1::uuid[])",
      [ids],
    );
    expect((ran.rows[0] as { first: Date }).first.getTime()).toBeGreaterThanOrEqual(started - 1_000);
  }, 120_000);
});
