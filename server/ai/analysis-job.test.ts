import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { syncStates } from "../db/schema.ts";
import { apiSuite } from "../test/api-suite.ts";
import { BACKENDS } from "../test/databases.ts";
import { createAccount, createEmails, createUser } from "../test/factories.ts";
import { waitUntil } from "../test/sync-fixture.ts";
import { ANALYSIS_BATCH, backfillRunning } from "./analysis-job.ts";

describe.each(BACKENDS)("the analysis job beside a backfill on %s", (kind) => {
  const suite = apiSuite(kind, { role: "all" });

  async function userWithBackfill(updatedSecondsAgo: number) {
    const user = await createUser(suite.db);
    const account = await createAccount(suite.db, user.id);
    await suite.db.insert(syncStates).values({
      accountId: account.id,
      generation: 1,
      backfillDone: false,
      updatedAt: sql`now() - make_interval(secs => ${updatedSecondsAgo})`,
    });
    await createEmails(suite.db, account, ANALYSIS_BATCH + 50);
    return { user, account };
  }

  it("analyses the newest batch, then leaves older mail until the backfill ends", async () => {
    const { user, account } = await userWithBackfill(0);
    expect(await backfillRunning(suite.db, user.id)).toBe(true);
    const jobs = suite.server.app.ai.jobs;
    await jobs.requestAnalysis(user.id);
    await waitUntil(async () => (await jobs.pending(user.id)) === 50, 30_000, "one batch analysed");
    // Held back: no further batch arrives while the backfill runs.
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await jobs.pending(user.id)).toBe(50);

    await suite.db.update(syncStates).set({ backfillDone: true }).where(eq(syncStates.accountId, account.id));
    expect(await backfillRunning(suite.db, user.id)).toBe(false);
    await jobs.requestAnalysis(user.id);
    await waitUntil(async () => (await jobs.pending(user.id)) === 0, 30_000, "the rest analysed");
  });

  it("does not wait for a backfill that stopped storing pages", async () => {
    const { user } = await userWithBackfill(600);
    expect(await backfillRunning(suite.db, user.id)).toBe(false);
    await suite.server.app.ai.jobs.requestAnalysis(user.id);
    await waitUntil(
      async () => (await suite.server.app.ai.jobs.pending(user.id)) === 0,
      30_000,
      "all analysed",
    );
  });
});
