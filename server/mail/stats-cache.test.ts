import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEventBus } from "../events.ts";
import { createClock } from "../lib/clock.ts";
import { openTestDatabase, type TestDatabase } from "../test/databases.ts";
import { createAccount, createEmails, createUser } from "../test/factories.ts";
import { createStatsService } from "./stats-service.ts";

describe("stats cache", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase("pglite");
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("drops a person's cached counts when a sync of one of their accounts stored mail, and when analyses were stored", async () => {
    const db = t.database.db;
    const events = createEventBus();
    const stats = createStatsService({
      db,
      clock: createClock(),
      events,
      // The provider's own total is read in the background; this account has none to offer.
      providerClient: () => {
        throw new Error("no provider in this test");
      },
      log: { warn: () => undefined },
    });
    const user = await createUser(db);
    const account = await createAccount(db, user.id);
    const other = await createAccount(db, (await createUser(db)).id);
    await createEmails(db, account, 3);
    expect((await stats.stats(user.id)).totalEmails).toBe(3);

    // A sync page lands: within the cache's life the old count would still be served.
    await createEmails(db, account, 2);
    events.emit("emails.synced", { accountId: other.id });
    expect((await stats.stats(user.id)).totalEmails).toBe(3);
    events.emit("emails.synced", { accountId: account.id });
    expect((await stats.stats(user.id)).totalEmails).toBe(5);

    // Stored analyses can move mail between buckets, whose counts the cards show.
    const [moved] = await createEmails(db, account, 1, () => ({ bucket: "other" }));
    expect((await stats.stats(user.id)).totalEmails).toBe(5);
    if (!moved) throw new Error("no email");
    events.emit("emails.analysed", { userId: user.id });
    const after = await stats.stats(user.id);
    expect(after.totalEmails).toBe(6);
    await stats.settled();
  });
});
