import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PEOPLE } from "../test/auth-fixture.ts";
import { BACKENDS } from "../test/databases.ts";
import { type SyncFixture, startSyncFixture, waitUntil } from "../test/sync-fixture.ts";

interface Ready {
  maintenance: { lastAnalyze?: { at: string; reason: string }; lastVacuum?: { at: string } };
}

describe.each(BACKENDS)("statistics and space upkeep on %s", (kind) => {
  let f: SyncFixture;
  beforeAll(async () => {
    f = await startSyncFixture(kind, { DB_VACUUM_INTERVAL_SECONDS: "4" });
  }, 60_000);
  afterAll(async () => {
    await f?.close();
  });

  const ready = async () => (await (await fetch(`${f.url}/readyz`)).json()) as Ready;

  it("analyses after a backfill: the planner knows how many rows the synced mailbox has", async () => {
    const email = PEOPLE.priya;
    await f.admin("POST", `mailboxes/${encodeURIComponent(email)}/generate`, {
      count: 900,
      seed: 21,
      days: 60,
    });
    const { accountId } = await f.signIn("gmail", email);
    await waitUntil(async () => (await f.state(accountId))?.backfillDone, 60_000, "backfill");
    const stored = (await f.rows(accountId)).length;
    await waitUntil(
      async () => (await ready()).maintenance.lastAnalyze?.reason === "backfill finished",
      10_000,
      "analyze",
    );
    const stats = await f.database.database.executeSql(
      "select reltuples::int as n from pg_class where relname = 'emails' and relkind = 'r'",
    );
    // Never analysed, PGlite keeps believing the table is empty (reltuples -1 or 0).
    expect((stats.rows[0] as { n: number }).n).toBeGreaterThanOrEqual(Math.floor(stored * 0.9));
  }, 90_000);

  it.runIf(kind === "pglite")(
    "vacuums on a schedule and shows the last run in /readyz",
    async () => {
      const first = await waitUntil(async () => (await ready()).maintenance.lastVacuum?.at, 20_000, "vacuum");
      const second = await waitUntil(
        async () => {
          const at = (await ready()).maintenance.lastVacuum?.at;
          return at && at > first ? at : undefined;
        },
        20_000,
        "second vacuum",
      );
      expect(second > first).toBe(true);
    },
    45_000,
  );
});
