import type PgBoss from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { BACKENDS, openTestDatabase, type TestDatabase } from "../test/databases.ts";
import { JobQueue } from "./queue.ts";

async function waitFor(check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 50));
  }
}

const quiet = { info() {}, warn() {}, error() {} };

describe.each(BACKENDS)("job queue on %s", (kind) => {
  let t: TestDatabase;
  let queue: JobQueue;
  const seen: Array<{ n: number; attempt: number }> = [];
  const attemptsByKind: Record<string, number> = {};

  beforeAll(async () => {
    t = await openTestDatabase(kind);
    queue = new JobQueue(t.database, { pollingIntervalSeconds: 0.5, log: quiet });
    queue.define({
      name: "record",
      schema: z.object({ n: z.number().int() }),
      handler: async (data, ctx) => {
        seen.push({ n: data.n, attempt: ctx.attempt });
      },
    });
    queue.define({
      name: "flaky",
      schema: z.object({ kind: z.enum(["transient", "permanent", "reauth", "rate_limit"]) }),
      baseDelayMs: 10,
      maxDelayMs: 50,
      maxAttempts: 3,
      handler: async (data) => {
        attemptsByKind[data.kind] = (attemptsByKind[data.kind] ?? 0) + 1;
        throw Object.assign(new Error(`failing as ${data.kind}`), { kind: data.kind, retryAfterMs: 20 });
      },
    });
    await queue.start();
    await queue.work();
  }, 60_000);

  afterAll(async () => {
    await queue?.stop();
    await t?.destroy();
  });

  it("runs a job sent to the queue", async () => {
    await queue.send("record", { n: 7 });
    await waitFor(() => seen.some((s) => s.n === 7));
    expect(seen.find((s) => s.n === 7)?.attempt).toBe(0);
  });

  it("rejects an invalid payload at send time", async () => {
    await expect(queue.send("record", { n: "seven" } as unknown as { n: number })).rejects.toThrow();
    await expect(queue.send("nope", {})).rejects.toThrow(/unknown job/);
  });

  it("retries transient and rate-limited failures up to the limit, never reauth or permanent ones", async () => {
    for (const k of ["transient", "permanent", "reauth", "rate_limit"] as const)
      await queue.send("flaky", { kind: k });
    await waitFor(() => (attemptsByKind.transient ?? 0) >= 3 && (attemptsByKind.rate_limit ?? 0) >= 3);
    // Give a wrongly scheduled extra attempt time to show up before asserting.
    await new Promise((r) => setTimeout(r, 1_500));
    expect(attemptsByKind).toEqual({ transient: 3, rate_limit: 3, permanent: 1, reauth: 1 });
  }, 30_000);
});

describe("several workers on one PostgreSQL database", () => {
  it("share the work without running a job twice", async () => {
    const t = await openTestDatabase("postgres");
    const { openDatabase } = await import("../db/client.ts");
    const second = await openDatabase({ database: t.config });
    const runs = new Map<number, number>();
    const make = (db: typeof t.database) => {
      const q = new JobQueue(db, { pollingIntervalSeconds: 0.5, log: quiet });
      q.define({
        name: "count",
        schema: z.object({ n: z.number() }),
        batchSize: 3,
        handler: async ({ n }) => {
          runs.set(n, (runs.get(n) ?? 0) + 1);
          await new Promise((r) => setTimeout(r, 5));
        },
      });
      return q;
    };
    const a = make(t.database);
    const b = make(second);
    try {
      await a.start();
      await b.start();
      for (let n = 0; n < 60; n++) await a.send("count", { n });
      await Promise.all([a.work(), b.work()]);
      await waitFor(() => runs.size === 60, 30_000);
      await new Promise((r) => setTimeout(r, 1_000));
      expect([...runs.values()].every((c) => c === 1)).toBe(true);
    } finally {
      await a.stop();
      await b.stop();
      await second.close();
      await t.destroy();
    }
  }, 60_000);
});

describe("wake (pglite)", () => {
  it("starts a woken job at once instead of at the worker's next poll", async () => {
    const t = await openTestDatabase("pglite");
    const q = new JobQueue(t.database, { pollingIntervalSeconds: 5, log: quiet });
    const ran = new Map<number, number>();
    q.define({
      name: "urgent",
      schema: z.object({ n: z.number() }),
      handler: async ({ n }) => {
        ran.set(n, Date.now());
      },
    });
    try {
      await q.start();
      await q.work();
      // Let the worker's first (empty) fetch pass, so it sleeps its 5 s polling interval.
      await new Promise((r) => setTimeout(r, 500));
      const sent = Date.now();
      await q.send("urgent", { n: 1 }, { wake: true });
      // Without the wake it would wait for the next poll, about 4.5 s from now.
      await waitFor(() => ran.has(1), 4_000);
      expect((ran.get(1) ?? Number.POSITIVE_INFINITY) - sent).toBeLessThan(3_000);
    } finally {
      await q.stop();
      await t.destroy();
    }
  }, 60_000);
});

describe("calls after stop (pglite)", () => {
  it("pg-boss's late complete, fail and fetch neither answer nor reject once the queue stopped", async () => {
    const t = await openTestDatabase("pglite");
    const q = new JobQueue(t.database, { log: quiet });
    q.define({ name: "late", schema: z.object({}), handler: async () => {} });
    try {
      await q.start();
      await q.stop();
      // What a worker whose fetch was in flight at stop() does next, unawaited by pg-boss.
      const boss = (q as unknown as { boss: PgBoss }).boss;
      const id = "00000000-0000-4000-8000-000000000001";
      const late = [boss.complete("late", id), boss.fail("late", id), boss.fetch("late")];
      const outcome = await Promise.race([
        Promise.allSettled(late).then((all) => all.map((r) => r.status).join(",")),
        new Promise((r) => setTimeout(() => r("pending"), 300)),
      ]);
      expect(outcome).toBe("pending");
    } finally {
      await t.destroy();
    }
  });
});

describe("expiry (pglite)", () => {
  it("a queue made without an expiry gets its definition's; a job nobody finishes stops being active after it", async () => {
    const t = await openTestDatabase("pglite");
    // An earlier version made the queue with pg-boss's default (15 minutes).
    const earlier = new JobQueue(t.database, { log: quiet });
    earlier.define({ name: "leased", schema: z.object({}), handler: async () => {} });
    const q = new JobQueue(t.database, { log: quiet, maintenanceIntervalSeconds: 1 });
    q.define({ name: "leased", schema: z.object({}), expireInSeconds: 2, handler: async () => {} });
    try {
      await earlier.start();
      await earlier.stop();
      await q.start();
      const id = await q.send("leased", {});
      // Taken as a worker takes it, then left as a killed process leaves it.
      const boss = (q as unknown as { boss: PgBoss }).boss;
      const [job] = await boss.fetch("leased");
      expect(job?.id).toBe(id);
      expect(Number(job?.expireInSeconds)).toBe(2);
      const started = Date.now();
      let state: string | undefined;
      while (Date.now() - started < 15_000) {
        state = (await boss.getJobById("leased", id ?? ""))?.state;
        if (state !== "active") break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(state).toBe("failed");
    } finally {
      await q.stop();
      await t.destroy();
    }
  }, 30_000);
});
