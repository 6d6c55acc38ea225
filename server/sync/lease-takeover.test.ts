import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../db/client.ts";
import { syncStates } from "../db/schema.ts";
import { BACKENDS, openTestDatabase, type TestDatabase } from "../test/databases.ts";
import { createAccount, createUser } from "../test/factories.ts";
import { claimAbandonedLeases } from "./sync-state.ts";

const LEASE = 5;

type StateSetup = {
  owner?: string | null;
  /** Lease expiry relative to now, seconds (negative: expired). */
  expiresIn?: number;
  backfillDone?: boolean;
  /** Queued flag relative to now, seconds; undefined: none. */
  queuedAgo?: number;
  status?: string;
};

describe.each(BACKENDS)("abandoned leases on %s", (kind) => {
  let t: TestDatabase;
  let userId: string;

  beforeAll(async () => {
    t = await openTestDatabase(kind);
    userId = (await createUser(t.database.db)).id;
  }, 60_000);
  afterAll(async () => {
    await t?.destroy();
  });

  async function account(setup: StateSetup): Promise<string> {
    const db = t.database.db;
    const a = await createAccount(db, userId, setup.status ? { status: setup.status } : {});
    await db.insert(syncStates).values({
      accountId: a.id,
      backfillDone: setup.backfillDone ?? false,
      leaseOwner: setup.owner === undefined ? "backfill:1:dead" : setup.owner,
      leaseExpiresAt:
        setup.expiresIn === undefined ? null : sql`now() + make_interval(secs => ${setup.expiresIn})`,
      queuedAt: setup.queuedAgo === undefined ? null : sql`now() - make_interval(secs => ${setup.queuedAgo})`,
    });
    return a.id;
  }

  it("claims only accounts whose expired lease left work, once, and again when the claim was lost", async () => {
    const db = t.database.db;
    const deadMidPass = await account({ expiresIn: -1 });
    const deadWithQueuedSync = await account({ expiresIn: -1, backfillDone: true, queuedAgo: 3 });
    const live = await account({ expiresIn: 30 });
    const deadNothingLeft = await account({ expiresIn: -1, backfillDone: true });
    const released = await account({ owner: null });
    const queuedAfterExpiry = await account({ expiresIn: -3, queuedAgo: 1 });
    const reauth = await account({ expiresIn: -1, status: "reauth_required" });

    const claimed = await claimAbandonedLeases(db, LEASE);
    expect(new Set(claimed)).toEqual(new Set([deadMidPass, deadWithQueuedSync]));
    for (const other of [live, deadNothingLeft, released, queuedAfterExpiry, reauth])
      expect(claimed).not.toContain(other);
    // The claim set the queued flag: checking again (this worker or another) claims nothing.
    expect(await claimAbandonedLeases(db, LEASE)).toEqual([]);

    // The job sent for the claim was lost too: after a lease length it is claimed again.
    await db
      .update(syncStates)
      .set({ queuedAt: sql`now() - make_interval(secs => ${LEASE + 1})` })
      .where(eq(syncStates.accountId, deadMidPass));
    expect(await claimAbandonedLeases(db, LEASE)).toEqual([deadMidPass]);
  });

  it.runIf(kind === "postgres")("of several workers checking at once, one claims each account", async () => {
    const ids = [await account({ expiresIn: -1 }), await account({ expiresIn: -2 })];
    const others = await Promise.all([0, 1, 2].map(() => openDatabase({ database: t.config })));
    try {
      const results = await Promise.all(others.map((d) => claimAbandonedLeases(d.db, LEASE)));
      const all = results.flat().filter((id) => ids.includes(id));
      expect(all.sort()).toEqual([...ids].sort());
    } finally {
      await Promise.all(others.map((d) => d.close()));
    }
  });
});
