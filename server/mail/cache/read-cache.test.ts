import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { createReadCache } from "./read-cache.ts";

const ALICE = "11111111-1111-4111-8111-111111111111";
const BOB = "22222222-2222-4222-8222-222222222222";

/** A load whose answer the test releases, counting how often it ran. */
function gate<T>(value: T) {
  let release: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    release = resolve;
  });
  let calls = 0;
  return {
    load: async () => {
      calls += 1;
      await opened;
      return value;
    },
    release: () => release(),
    calls: () => calls,
  };
}

describe("read cache", () => {
  it("shares one load among concurrent misses and keeps its answer", async () => {
    const cache = createReadCache();
    const g = gate({ emails: [1, 2, 3] });
    const waiting = Promise.all([1, 2, 3, 4, 5].map(() => cache.get(ALICE, "/api/emails", g.load)));
    g.release();
    const answers = await waiting;
    expect(g.calls()).toBe(1);
    expect(new Set(answers.map((a) => a.etag)).size).toBe(1);
    expect(JSON.parse(answers[0]?.body.toString() ?? "")).toEqual({ emails: [1, 2, 3] });
    await cache.get(ALICE, "/api/emails", g.load);
    expect(g.calls()).toBe(1);
  });

  it("drops only the person's answers, and never keeps a load that ran across their change", async () => {
    const cache = createReadCache();
    await cache.get(ALICE, "/a", async () => "alice");
    await cache.get(BOB, "/a", async () => "bob");
    const before = gate("read before the write");
    const running = cache.get(ALICE, "/b", before.load);
    cache.invalidateUser(ALICE);
    // A request after the change does not join the load that started before it.
    const after = gate("read after the write");
    const fresh = cache.get(ALICE, "/b", after.load);
    before.release();
    after.release();
    expect((await running).body.toString()).toBe('"read before the write"');
    expect((await fresh).body.toString()).toBe('"read after the write"');
    expect(before.calls()).toBe(1);
    expect(after.calls()).toBe(1);
    // "/a" of Alice went, Bob's stayed, and "/b" holds the answer read after the change.
    let loads = 0;
    const count = async () => {
      loads += 1;
      return "again";
    };
    expect((await cache.get(ALICE, "/a", count)).body.toString()).toBe('"again"');
    expect((await cache.get(BOB, "/a", count)).body.toString()).toBe('"bob"');
    expect((await cache.get(ALICE, "/b", count)).body.toString()).toBe('"read after the write"');
    expect(loads).toBe(1);
  });

  it("stays within its byte limits, overall and per person", async () => {
    const cache = createReadCache({ maxBytes: 64 * 1024, maxUserBytes: 16 * 1024 });
    const big = "x".repeat(4000);
    for (let i = 0; i < 20; i++) await cache.get(ALICE, `/page/${i}`, async () => big);
    // Alice's share holds at most 4 of her ~4 KB answers; the newest stay.
    expect(cache.stats().bytes).toBeLessThanOrEqual(16 * 1024);
    let reloaded = 0;
    const again = async () => {
      reloaded += 1;
      return big;
    };
    await cache.get(ALICE, "/page/19", again);
    expect(reloaded).toBe(0);
    await cache.get(ALICE, "/page/0", again);
    expect(reloaded).toBe(1);
    for (let p = 0; p < 30; p++) {
      const user = `${String(p).padStart(8, "0")}-0000-4000-8000-000000000000`;
      for (let i = 0; i < 3; i++) await cache.get(user, `/page/${i}`, async () => big);
    }
    expect(cache.stats().bytes).toBeLessThanOrEqual(64 * 1024);
  });

  it("does not keep a failed load", async () => {
    const cache = createReadCache();
    await expect(
      cache.get(ALICE, "/x", async () => {
        throw new Error("database gone");
      }),
    ).rejects.toThrow("database gone");
    expect((await cache.get(ALICE, "/x", async () => 1)).body.toString()).toBe("1");
  });

  it("compresses a kept answer once", async () => {
    const cache = createReadCache();
    const value = { text: "hello ".repeat(500) };
    const answer = await cache.get(ALICE, "/g", async () => value);
    const gz = cache.encoded(ALICE, "/g", answer, "gzip");
    const br = cache.encoded(ALICE, "/g", answer, "br");
    expect(JSON.parse(gunzipSync(gz).toString())).toEqual(value);
    expect(JSON.parse(brotliDecompressSync(br).toString())).toEqual(value);
    const again = await cache.get(ALICE, "/g", async () => ({ other: true }));
    expect(cache.encoded(ALICE, "/g", again, "gzip")).toBe(gz);
    expect(cache.encoded(ALICE, "/g", again, "br")).toBe(br);
  });

  it("forgets everything after a gap in the notices", async () => {
    const cache = createReadCache();
    await cache.get(ALICE, "/a", async () => 1);
    cache.invalidateAll();
    expect(cache.stats().entries).toBe(0);
    expect((await cache.get(ALICE, "/a", async () => 2)).body.toString()).toBe("2");
  });
  it("a change to some emails keeps the answers of other single emails, and drops lists", async () => {
    const cache = createReadCache();
    const E1 = "33333333-3333-4333-8333-333333333333";
    const E2 = "44444444-4444-4444-8444-444444444444";
    const kept = async (key: string, emailId?: string) => {
      let loaded = false;
      await cache.get(
        ALICE,
        key,
        async () => {
          loaded = true;
          return key;
        },
        emailId,
      );
      return !loaded;
    };
    await kept("/list");
    await kept(`/e/${E1}`, E1);
    await kept(`/e/${E2}`, E2);
    // Compressed again keeps its email (the entry is stored anew with its gzip bytes).
    const big = await cache.get(ALICE, `/e/${E2}`, async () => "unused", E2);
    cache.encoded(ALICE, `/e/${E2}`, big, "gzip");
    // A load of E2 under way when E1 changes is still kept.
    const g = gate("E2 again");
    cache.invalidateUser(ALICE, [E2]);
    const running = cache.get(ALICE, `/e/${E2}`, g.load, E2);
    cache.invalidateUser(ALICE, [E1]);
    g.release();
    await running;
    expect(await kept(`/e/${E2}`, E2)).toBe(true);
    expect(await kept(`/e/${E1}`, E1)).toBe(false);
    expect(await kept("/list")).toBe(false);
    // No emails named ([]): lists go, every single email stays.
    cache.invalidateUser(ALICE, []);
    expect(await kept("/list")).toBe(false);
    expect(await kept(`/e/${E1}`, E1)).toBe(true);
    // Nothing named: everything goes.
    cache.invalidateUser(ALICE);
    expect(await kept(`/e/${E1}`, E1)).toBe(false);
    expect(await kept(`/e/${E2}`, E2)).toBe(false);
  });
});
