import { describe, expect, it } from "vitest";
import { createClock } from "../../lib/clock.ts";
import type { ClaimedAction, DueActionStore } from "./store.ts";
import { createDueActionSweeper, type DueActionHandler } from "./sweeper.ts";

/** A store that hands out `actions` once and records what the sweep did with each. */
function fakeStore(actions: ClaimedAction[]) {
  const calls: Array<{ op: string; id: string; detail?: unknown }> = [];
  let queue = [...actions];
  const store = {
    claim: async (_worker: string, _now: Date, _lease: number, limit: number) => {
      const taken = queue.slice(0, limit);
      queue = queue.slice(limit);
      return taken;
    },
    complete: async (id: string) => {
      calls.push({ op: "complete", id });
      return true;
    },
    retryAt: async (id: string, _worker: string, runAt: Date, error: string) => {
      calls.push({ op: "retry", id, detail: { runAt, error } });
    },
    fail: async (id: string, _worker: string, error: string) => {
      calls.push({ op: "fail", id, detail: error });
    },
    waitForReconnect: async (id: string, _worker: string, _now: Date, error: string) => {
      calls.push({ op: "wait", id, detail: error });
    },
  } as unknown as DueActionStore;
  return { store, calls };
}

const action = (id: string, kind = "send", attempts = 1): ClaimedAction => ({
  id,
  userId: "u",
  kind,
  payload: {},
  ref: null,
  attempts,
  runAt: new Date(0),
});

async function sweepOnce(actions: ClaimedAction[], handler: DueActionHandler, batchSize?: number) {
  const { store, calls } = fakeStore(actions);
  const clock = createClock(() => 1_000_000);
  const sweeper = createDueActionSweeper({
    store,
    clock,
    handlers: new Map([["send", handler]]),
    log: { warn() {}, error() {} },
    pollMs: 10_000,
    ...(batchSize === undefined ? {} : { batchSize }),
  });
  sweeper.start();
  await new Promise((resolve) => setTimeout(resolve, 50));
  await sweeper.stop();
  return calls;
}

describe("the due-action sweep", () => {
  it("marks a run that succeeded done", async () => {
    expect(await sweepOnce([action("a")], async () => undefined)).toEqual([{ op: "complete", id: "a" }]);
  });

  it("retries a transient failure later, by the retry policy, keeping the reason", async () => {
    const calls = await sweepOnce([action("a")], async () => {
      throw Object.assign(new Error("Sending the email failed: timeout"), { kind: "transient" });
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      op: "retry",
      id: "a",
      detail: { error: "Sending the email failed: timeout" },
    });
    const runAt = (calls[0]?.detail as { runAt: Date } | undefined)?.runAt;
    if (!runAt) throw new Error("no retry time");
    expect(runAt.getTime()).toBeGreaterThanOrEqual(1_000_000);
  });

  it("never gives up a run stopped by a revoked grant: it waits for the reconnect, whatever its attempts", async () => {
    const reauth = await sweepOnce([action("a", "send", 6)], async () => {
      throw Object.assign(new Error("Reconnect your Gmail account"), { kind: "reauth" });
    });
    expect(reauth).toEqual([{ op: "wait", id: "a", detail: "Reconnect your Gmail account" }]);
    // The API's error (a handler that let it through) is read the same way.
    const apiError = await sweepOnce([action("b")], async () => {
      throw Object.assign(new Error("Your Gmail account needs to be reconnected."), {
        code: "provider_reauth_required",
      });
    });
    expect(apiError).toEqual([
      { op: "wait", id: "b", detail: "Your Gmail account needs to be reconnected." },
    ]);
  });

  it("keeps a run that cannot work (permanent, unknown kind) as failed", async () => {
    const permanent = await sweepOnce([action("a")], async () => {
      throw Object.assign(new Error("The held mail is unreadable."), { kind: "permanent" });
    });
    expect(permanent).toEqual([{ op: "fail", id: "a", detail: "The held mail is unreadable." }]);
    const unknown = await sweepOnce([action("b", "snooze")], async () => undefined);
    expect(unknown).toEqual([{ op: "fail", id: "b", detail: "no handler for snooze" }]);
  });

  it("gives up a transient failure after the last attempt, keeping it", async () => {
    const calls = await sweepOnce([action("a", "send", 6)], async () => {
      throw Object.assign(new Error("still down"), { kind: "transient" });
    });
    expect(calls).toEqual([{ op: "fail", id: "a", detail: "still down" }]);
  });

  it("fills a slot as soon as a run ends: one slow run does not hold back the rest", async () => {
    const ids = ["slow", "b", "c", "d", "e"];
    const calls = await sweepOnce(
      ids.map((id) => action(id)),
      async (a) => {
        if (a.id === "slow") await new Promise((resolve) => setTimeout(resolve, 30));
      },
      2,
    );
    // With batches of two run side by side, "slow" would end before c, d and e began.
    expect(calls.map((c) => c.id)).toEqual(["b", "c", "d", "e", "slow"]);
  });
});
