import { describe, expect, it } from "vitest";
import { createActionSyncCoalescer } from "./action-sync-coalescer.ts";

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("follow-up syncs after writes", () => {
  it("one sync per account per window, however many writes; the next window syncs again", async () => {
    const synced: string[] = [];
    const syncs = createActionSyncCoalescer({
      windowMs: 30,
      request: async (accountId) => void synced.push(accountId),
      onError: () => undefined,
    });
    for (let i = 0; i < 20; i++) syncs.request("a");
    syncs.request("b");
    expect(synced).toEqual([]);
    expect(syncs.pending()).toBe(2);
    await wait(80);
    expect(synced.sort()).toEqual(["a", "b"]);
    expect(syncs.pending()).toBe(0);
    syncs.request("a");
    await wait(80);
    expect(synced.sort()).toEqual(["a", "a", "b"]);
  });

  it("a failed request is reported, and stop drops what is armed", async () => {
    const failures: string[] = [];
    const synced: string[] = [];
    const syncs = createActionSyncCoalescer({
      windowMs: 20,
      request: async (accountId) => {
        if (accountId === "bad") throw new Error("database away");
        synced.push(accountId);
      },
      onError: (accountId) => void failures.push(accountId),
    });
    syncs.request("bad");
    await wait(60);
    expect(failures).toEqual(["bad"]);
    syncs.request("a");
    syncs.stop();
    syncs.request("b");
    await wait(60);
    expect(synced).toEqual([]);
  });
});
