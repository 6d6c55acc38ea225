import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUSY_REQUESTS_PER_SECOND, interactiveLoad } from "../lib/interactive-load.ts";
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
    // Someone paging through their mail, as the HTTP hook would count them: every tick alone makes
    // the API busy for a second, so a starved timer (a loaded CI machine) does not make it quiet.
    const client = setInterval(() => {
      for (let i = 0; i < BUSY_REQUESTS_PER_SECOND; i++) interactiveLoad.begin()();
    }, 50);
    try {
      const { accountId } = await f.signIn("gmail", email);
      await waitUntil(async () => (await f.state(accountId))?.backfillDone === true, 120_000, "backfill");
      expect(interactiveLoad.busy()).toBe(true);
      // Each step is a transaction of its own, and rows inserted in one share its now(): the
      // rows per created_at are the steps' sizes, however slowly a poll would have seen them.
      const { rows: steps } = await f.database.database.executeSql(
        "select count(*)::int as n from emails where account_id = $1 group by created_at",
        [accountId],
      );
      const sizes = (steps as Array<{ n: number }>).map((r) => r.n);
      expect(sizes.length).toBeGreaterThan(2);
      expect(Math.max(...sizes)).toBeLessThanOrEqual(BUSY_STORE_CHUNK);
      const ids = (await f.rows(accountId)).map((r) => r.providerId);
      expect(new Set(ids).size).toBe(ids.length);
      expect(new Set(ids)).toEqual(expectedIds(await f.mailbox(email), "gmail", 90));
    } finally {
      clearInterval(client);
    }
  }, 180_000);
});
