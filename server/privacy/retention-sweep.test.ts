import { count, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { emails } from "../db/schema.ts";
import type { JobQueue } from "../jobs/queue.ts";
import { createClock } from "../lib/clock.ts";
import { BACKENDS, openTestDatabase, type TestDatabase } from "../test/databases.ts";
import { createAccount, createEmail, createUser } from "../test/factories.ts";
import type { AccountDeleter } from "./deletion.ts";
import { createPrivacyServices } from "./service.ts";

const DAY_MS = 86_400_000;
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe.each(BACKENDS)("the daily retention run on %s", (kind) => {
  let t: TestDatabase | undefined;
  afterEach(async () => {
    await t?.destroy();
    t = undefined;
  });

  it("overlapping sweeps run a person's retention once, and not again the same day", async () => {
    t = await openTestDatabase(kind);
    const db = t.database.db;
    const clock = createClock();
    const user = await createUser(db);
    const account = await createAccount(db, user.id);
    const daysAgo = (days: number) => new Date(clock.now().getTime() - days * DAY_MS);
    await createEmail(db, account, { subject: "Ancient", receivedAt: daysAgo(3 * 365) });
    await createEmail(db, account, { subject: "Recent", receivedAt: daysAgo(10) });
    // The sweep's job and account deletion play no part here.
    const queue = { define: () => undefined } as unknown as JobQueue;
    const deleter = {} as AccountDeleter;
    const privacy = createPrivacyServices({ db, clock, queue, deleter, sweepSeconds: 300, log: quiet });

    const [first, second] = await Promise.all([privacy.sweep(), privacy.sweep()]);
    expect(first.retained + second.retained).toBe(1);
    const [left] = await db.select({ n: count() }).from(emails).where(eq(emails.userId, user.id));
    expect(left?.n).toBe(1);
    expect((await privacy.sweep()).retained).toBe(0);
  });
});
