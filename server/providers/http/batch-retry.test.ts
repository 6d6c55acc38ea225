import { describe, expect, it } from "vitest";
import { runBatchWithRetries } from "./batch-retry.ts";
import { ProviderRequestError } from "./errors.ts";
import { DEFAULT_RETRY } from "./retry.ts";

type Call = { id: string };
type Answer = { status: number };

const http = {
  token: async () => "token",
  retry: { ...DEFAULT_RETRY, sleep: async () => {}, random: () => 0 },
};
const classify = (answer: Answer) =>
  new ProviderRequestError(answer.status === 403 ? "permanent" : "transient", `status ${answer.status}`, {
    status: answer.status,
  });
const calls = (n: number): Call[] => Array.from({ length: n }, (_, i) => ({ id: `c${i}` }));
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("runBatchWithRetries", () => {
  it("keeps `concurrency` batches in flight and merges every answer", async () => {
    let inFlight = 0;
    let most = 0;
    const sent: number[] = [];
    const answers = await runBatchWithRetries(calls(23), {
      provider: "Test",
      chunkSize: 5,
      concurrency: 3,
      http,
      classify,
      async send(chunk) {
        inFlight++;
        most = Math.max(most, inFlight);
        sent.push(chunk.length);
        await tick();
        inFlight--;
        return new Map(chunk.map((c) => [c.id, { status: 200 }]));
      },
    });
    expect(most).toBe(3);
    expect(sent.sort((a, b) => a - b)).toEqual([3, 5, 5, 5, 5]);
    expect([...answers.keys()].sort()).toEqual(
      calls(23)
        .map((c) => c.id)
        .sort(),
    );
  });

  it("sends one batch at a time by default", async () => {
    let inFlight = 0;
    let most = 0;
    await runBatchWithRetries(calls(12), {
      provider: "Test",
      chunkSize: 4,
      http,
      classify,
      async send(chunk) {
        inFlight++;
        most = Math.max(most, inFlight);
        await tick();
        inFlight--;
        return new Map(chunk.map((c) => [c.id, { status: 200 }]));
      },
    });
    expect(most).toBe(1);
  });

  it("retries a failed part inside its own batch while the other lanes go on", async () => {
    const tries = new Map<string, number>();
    const answers = await runBatchWithRetries(calls(6), {
      provider: "Test",
      chunkSize: 2,
      concurrency: 3,
      http,
      classify,
      async send(chunk) {
        await tick();
        return new Map(
          chunk.map((c) => {
            const n = (tries.get(c.id) ?? 0) + 1;
            tries.set(c.id, n);
            return [c.id, { status: c.id === "c3" && n === 1 ? 503 : 200 }];
          }),
        );
      },
    });
    expect(tries.get("c3")).toBe(2);
    expect(tries.get("c0")).toBe(1);
    expect(answers.get("c3")).toEqual({ status: 200 });
    expect(answers.size).toBe(6);
  });

  it("fails as a whole when a batch fails for good, and starts no further batches", async () => {
    const started: string[] = [];
    const run = runBatchWithRetries(calls(20), {
      provider: "Test",
      chunkSize: 2,
      concurrency: 2,
      http,
      classify,
      async send(chunk) {
        started.push(chunk[0]?.id ?? "");
        await tick();
        if (chunk.some((c) => c.id === "c0")) throw new ProviderRequestError("reauth", "token revoked");
        return new Map(chunk.map((c) => [c.id, { status: 200 }]));
      },
    });
    await expect(run).rejects.toThrow("token revoked");
    await tick();
    await tick();
    // The first two lanes started; after the failure at most the lane already running finishes.
    expect(started.length).toBeLessThanOrEqual(3);
  });
});
