import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { interactiveLoad } from "../lib/interactive-load.ts";
import { PEOPLE } from "../test/auth-fixture.ts";
import { expectedIds, type SyncFixture, startSyncFixture, waitUntil } from "../test/sync-fixture.ts";
import { BUSY_STORE_CHUNK } from "./backfill.ts";

describe("a backfill while the API is busy", () => {
  let f: SyncFixture;
  beforeAll(async () => {
    f = await startSyncFixture("postgres", {}, { analyseAfterSync: false });
  }, 60_000);
  afterAll(async () => {
    await f?.close();
  });

  it("stores its pages in small steps, and every message arrives once", async () => {
    const email = PEOPLE.alex;
    await f.admin("POST", `mailboxes/${encodeURIComponent(email)}/generate`, {
      count: 400,
      seed: 11,
      days: 30,
    });
    // Someone paging through their mail: 20 requests a second, as the HTTP hook would count them.
    const client = setInterval(() => interactiveLoad.begin()(), 50);
    try {
      const { accountId } = await f.signIn("gmail", email);
      let previous = 0;
      let largestStep = 0;
      await waitUntil(
        async () => {
          const state = await f.state(accountId);
          const stored = (await f.rows(accountId)).length;
          // The first page (50) is the initial sync's; later growth is the backfill's steps.
          if (previous > 0) largestStep = Math.max(largestStep, stored - previous);
          previous = stored;
          return state?.backfillDone === true;
        },
        120_000,
        "backfill",
      );
      expect(interactiveLoad.busy()).toBe(true);
      expect(largestStep).toBeGreaterThan(0);
      expect(largestStep).toBeLessThanOrEqual(BUSY_STORE_CHUNK);
      const ids = (await f.rows(accountId)).map((r) => r.providerId);
      expect(new Set(ids).size).toBe(ids.length);
      expect(new Set(ids)).toEqual(expectedIds(await f.mailbox(email), "gmail", 90));
    } finally {
      clearInterval(client);
    }
  }, 180_000);
});
