import { describe, expect, it } from "vitest";
import { gmailQuotaFor, graphConcurrencyFor } from "./registry.ts";
import { Semaphore } from "./semaphore.ts";
import { TokenBucket } from "./token-bucket.ts";

describe("TokenBucket", () => {
  // Time moves only when the test says so; sleeps are recorded, not slept.
  function bucket(capacity: number, perMinute: number) {
    let now = 0;
    const waits: number[] = [];
    const b = new TokenBucket({
      capacity,
      refillPerMs: perMinute / 60_000,
      now: () => now,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    return { b, waits, advance: (ms: number) => (now += ms) };
  }

  it("spends without waiting while units last, then waits exactly for the refill", async () => {
    const { b, waits } = bucket(15_000, 15_000);
    for (let i = 0; i < 300; i += 1) await b.take(50); // 300 batches of 10 gets = 15,000 units
    expect(waits).toEqual([]);
    await b.take(100); // messages.send
    expect(waits).toEqual([400]); // 100 units at 250 units/s
    expect(b.available).toBe(-100);
  });

  it("serves callers in order: later callers wait behind earlier reservations", async () => {
    const { b, waits } = bucket(10, 600); // 10 units per second
    await Promise.all([b.take(10), b.take(5), b.take(5)]);
    expect(waits).toEqual([500, 1000]);
  });

  it("refills over time but never above capacity, and caps oversized requests", async () => {
    const { b, waits, advance } = bucket(100, 6_000);
    await b.take(100);
    advance(60_000);
    expect(b.available).toBe(100);
    await b.take(1_000);
    expect(waits).toEqual([]);
  });
});

describe("Semaphore", () => {
  it("admits at most `permits` at once, first come first served, weights included", async () => {
    const s = new Semaphore(4);
    const order: string[] = [];
    const a = await s.acquire(3);
    const pendingHeavy = s.acquire(4).then((release) => {
      order.push("heavy");
      return release;
    });
    const pendingLight = s.acquire(1).then((release) => {
      order.push("light");
      return release;
    });
    await Promise.resolve();
    expect(s.inUse).toBe(3);
    expect(order).toEqual([]);
    a();
    const heavy = await pendingHeavy;
    expect(s.inUse).toBe(4);
    heavy();
    (await pendingLight)();
    expect(order).toEqual(["heavy", "light"]);
    expect(s.inUse).toBe(0);
  });

  it("run() releases even when the task throws", async () => {
    const s = new Semaphore(1);
    await expect(s.run(1, async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(s.inUse).toBe(0);
  });
});

describe("registry", () => {
  it("shares one limiter per account across clients in the process", () => {
    expect(gmailQuotaFor("gmail:acc-1", 15_000)).toBe(gmailQuotaFor("gmail:acc-1", 15_000));
    expect(gmailQuotaFor("gmail:acc-1", 15_000)).not.toBe(gmailQuotaFor("gmail:acc-2", 15_000));
    expect(graphConcurrencyFor("outlook:acc-1")).toBe(graphConcurrencyFor("outlook:acc-1"));
    expect(graphConcurrencyFor("outlook:acc-1").permits).toBe(4);
    // Ten seconds of burst at 250 units/s, not a whole minute at once.
    expect(gmailQuotaFor("gmail:acc-1", 15_000).capacity).toBe(2_500);
  });
});
