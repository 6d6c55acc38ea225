import { describe, expect, it } from "vitest";
import { DomainError } from "./errors.ts";
import { createFairnessGate, type Release } from "./fairness-gate.ts";

const limits = { perUser: 3, contendedPerUser: 1, queuePerUser: 4, idleMs: 20 };

/** Resolves on the next turn of the event loop, after every promise that can settle has. */
const tick = () => new Promise((resolve) => setImmediate(resolve));

/** Starts `n` acquisitions and records the order in which they are granted. */
function request(gate: ReturnType<typeof createFairnessGate>, userId: string, n: number, granted: string[]) {
  return Array.from({ length: n }, (_, i) =>
    gate.acquire(userId).then(
      (release) => {
        granted.push(`${userId}${i}`);
        return release;
      },
      (err: unknown) => err,
    ),
  );
}

describe("fairness gate", () => {
  it("runs a person's first requests, queues the next in order, and refuses past the queue with 429", async () => {
    const gate = createFairnessGate(limits);
    const granted: string[] = [];
    const outcomes = request(gate, "a", 9, granted);
    await tick();
    expect(granted).toEqual(["a0", "a1", "a2"]);
    const refused = await Promise.all(outcomes.slice(7));
    for (const err of refused) {
      expect(err).toBeInstanceOf(DomainError);
      expect((err as DomainError).code).toBe("rate_limited");
      expect((err as DomainError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect((err as DomainError).message).toMatch(/Try again in \d+ seconds?\./);
    }
    // Each release lets the oldest waiting request run.
    ((await outcomes[0]) as Release)();
    await tick();
    expect(granted).toEqual(["a0", "a1", "a2", "a3"]);
    ((await outcomes[1]) as Release)();
    ((await outcomes[2]) as Release)();
    await tick();
    expect(granted).toEqual(["a0", "a1", "a2", "a3", "a4", "a5"]);
  });

  it("serves another person at once while one has a full queue, then gives each a share", async () => {
    const gate = createFairnessGate(limits);
    const granted: string[] = [];
    const a = request(gate, "a", 7, granted);
    await tick();
    const b = request(gate, "b", 2, granted);
    await tick();
    // b runs before any of a's four queued requests.
    expect(granted).toEqual(["a0", "a1", "a2", "b0"]);
    // With b active, a is down to one running request: its three running ones must end first.
    for (const i of [0, 1]) ((await a[i]) as Release)();
    await tick();
    expect(granted).toEqual(["a0", "a1", "a2", "b0"]);
    ((await a[2]) as Release)();
    await tick();
    expect(granted).toEqual(["a0", "a1", "a2", "b0", "a3"]);
    ((await b[0]) as Release)();
    await tick();
    expect(granted).toEqual(["a0", "a1", "a2", "b0", "a3", "b1"]);
  });

  it("keeps no state for people who went quiet, and the one left gets its full limit back", async () => {
    const gate = createFairnessGate(limits);
    const granted: string[] = [];
    const b = request(gate, "b", 1, granted);
    await tick();
    const a = request(gate, "a", 4, granted);
    await tick();
    expect(granted).toEqual(["b0", "a0"]);
    expect(gate.trackedUsers()).toBe(2);
    ((await b[0]) as Release)();
    await new Promise((resolve) => setTimeout(resolve, limits.idleMs * 3));
    // b idle past idleMs: dropped, and a runs three at once again.
    expect(gate.trackedUsers()).toBe(1);
    expect(granted).toEqual(["b0", "a0", "a1", "a2"]);
    for (const p of a.slice(0, 3)) ((await p) as Release)();
    await tick();
    ((await a[3]) as Release)();
    await new Promise((resolve) => setTimeout(resolve, limits.idleMs * 3));
    expect(gate.trackedUsers()).toBe(0);
  });

  it("a request whose client went away while it waited leaves the queue", async () => {
    const gate = createFairnessGate({ ...limits, perUser: 1 });
    const first = await gate.acquire("a");
    const gone = new AbortController();
    const waiting = gate.acquire("a", gone.signal);
    const next = gate.acquire("a");
    gone.abort();
    await expect(waiting).rejects.toBeInstanceOf(DomainError);
    first();
    // The aborted one took no slot: the one behind it runs.
    await expect(next).resolves.toBeTypeOf("function");
  });
});
