import { randomUUID } from "node:crypto";
import { and, eq, inArray, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { isConnectionError } from "../db/connection-errors.ts";
import { mailAccounts, syncStates } from "../db/schema.ts";

export type SyncStateRow = typeof syncStates.$inferSelect;

/** A collapsed trigger older than this no longer blocks a new one (its job was lost). */
const QUEUED_STALE_SECONDS = 120;
/** How long a lease lasts without renewal unless configured (SYNC_LEASE_SECONDS); holders renew after every page. */
export const DEFAULT_LEASE_SECONDS = 60;

export async function ensureState(db: Db, accountId: string): Promise<void> {
  await db.insert(syncStates).values({ accountId }).onConflictDoNothing();
}

export async function loadState(db: Db, accountId: string): Promise<SyncStateRow | undefined> {
  const [row] = await db.select().from(syncStates).where(eq(syncStates.accountId, accountId));
  return row;
}

/**
 * Marks a sync as queued unless one already is: true means "send a job", false means an earlier
 * trigger's job has not read the changes yet (it is queued or waiting for the lease) and will see
 * this change too. Works across processes.
 */
export async function markQueued(db: Db, accountId: string): Promise<boolean> {
  const rows = await db
    .insert(syncStates)
    .values({ accountId, queuedAt: sql`now()` })
    .onConflictDoUpdate({
      target: syncStates.accountId,
      set: { queuedAt: sql`now()` },
      setWhere: or(
        isNull(syncStates.queuedAt),
        lt(syncStates.queuedAt, sql`now() - make_interval(secs => ${QUEUED_STALE_SECONDS})`),
      ),
    })
    .returning({ accountId: syncStates.accountId });
  return rows.length > 0;
}

/** A sync clears the flag once it holds the lease, right before it reads the provider's changes. */
export async function clearQueued(db: Db, accountId: string): Promise<void> {
  await db.update(syncStates).set({ queuedAt: null }).where(eq(syncStates.accountId, accountId));
}

/** Which kind of step holds an account's lease; a backfill gives way to a queued sync. */
export type LeaseKind = "sync" | "backfill" | "watch";

/**
 * True while a sync of the account is queued or waiting for the lease and has not yet read the
 * provider's changes (a stale flag of a lost job does not count). A running backfill hands the
 * lease over between pages when this is true, so a push is not stuck behind a long pass.
 */
export async function syncQueued(db: Db, accountId: string): Promise<boolean> {
  const rows = await db
    .select({ accountId: syncStates.accountId })
    .from(syncStates)
    .where(
      and(
        eq(syncStates.accountId, accountId),
        sql`${syncStates.queuedAt} > now() - make_interval(secs => ${QUEUED_STALE_SECONDS})`,
      ),
    );
  return rows.length > 0;
}

export interface Lease {
  readonly accountId: string;
  readonly owner: string;
  /** Extends the lease; false when it was lost (expired and taken by another worker). */
  renew(): Promise<boolean>;
  release(): Promise<void>;
}

async function tryTake(db: Db, accountId: string, owner: string, leaseSeconds: number): Promise<boolean> {
  const rows = await db
    .update(syncStates)
    .set({ leaseOwner: owner, leaseExpiresAt: sql`now() + make_interval(secs => ${leaseSeconds})` })
    .where(
      and(
        eq(syncStates.accountId, accountId),
        or(
          isNull(syncStates.leaseOwner),
          lt(syncStates.leaseExpiresAt, sql`now()`),
          eq(syncStates.leaseOwner, owner),
        ),
      ),
    )
    .returning({ accountId: syncStates.accountId });
  return rows.length > 0;
}

/** The kind of step holding the account's lease right now, if any. */
export async function leaseHolder(db: Db, accountId: string): Promise<LeaseKind | undefined> {
  const [row] = await db
    .select({ owner: syncStates.leaseOwner })
    .from(syncStates)
    .where(and(eq(syncStates.accountId, accountId), sql`${syncStates.leaseExpiresAt} >= now()`));
  const kind = row?.owner?.split(":", 1)[0];
  return kind === "sync" || kind === "backfill" || kind === "watch" ? kind : undefined;
}

/**
 * Takes the account's sync lease, waiting up to `waitMs` for the holder to finish. Database time
 * decides expiry, so workers on different machines agree. `unlessHeldBy` gives up at once when
 * a step of that kind holds it (a second backfill of the same pass has nothing to wait for).
 */
export async function acquireLease(
  db: Db,
  accountId: string,
  waitMs: number,
  kind: LeaseKind = "sync",
  opts: { unlessHeldBy?: LeaseKind; leaseSeconds?: number } = {},
): Promise<Lease | null> {
  await ensureState(db, accountId);
  const leaseSeconds = opts.leaseSeconds ?? DEFAULT_LEASE_SECONDS;
  // The pid tells an operator (and the worker-death test) which process holds the account.
  const owner = `${kind}:${process.pid}:${randomUUID()}`;
  const deadline = Date.now() + waitMs;
  for (;;) {
    if (await tryTake(db, accountId, owner, leaseSeconds)) break;
    if (Date.now() >= deadline) return null;
    if (opts.unlessHeldBy && (await leaseHolder(db, accountId)) === opts.unlessHeldBy) return null;
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    accountId,
    owner,
    renew: () => tryTake(db, accountId, owner, leaseSeconds),
    async release() {
      // A release lost with its connection would leave the account locked until the lease
      // expires; the pool hands out a fresh connection, so try a few times.
      for (let tries = 1; ; tries++) {
        try {
          await db
            .update(syncStates)
            .set({ leaseOwner: null, leaseExpiresAt: null })
            .where(and(eq(syncStates.accountId, accountId), eq(syncStates.leaseOwner, owner)));
          return;
        } catch (err) {
          if (tries >= 5 || !isConnectionError(err)) throw err;
          await new Promise((r) => setTimeout(r, 100 * 2 ** tries));
        }
      }
    },
  };
}

/**
 * Accounts whose lease ran out while its holder still had work on them (a pass not finished, or a
 * sync queued before the lease expired): the holder died or hung, and nothing else would resume
 * them before the next poll. Marks a sync queued for each and returns them; the caller sends the
 * jobs. One statement, so of several workers asking at once only one claims an account (the
 * others re-check the row after the first commits and find the flag newer than the expiry). A
 * claim whose job has not taken the lease within a lease length (it was lost too) is made again.
 */
export async function claimAbandonedLeases(db: Db, leaseSeconds: number): Promise<string[]> {
  const rows = await db
    .update(syncStates)
    .set({ queuedAt: sql`now()` })
    .where(
      and(
        isNotNull(syncStates.leaseOwner),
        lt(syncStates.leaseExpiresAt, sql`now()`),
        or(eq(syncStates.backfillDone, false), isNotNull(syncStates.queuedAt)),
        or(
          isNull(syncStates.queuedAt),
          lt(syncStates.queuedAt, syncStates.leaseExpiresAt),
          lt(syncStates.queuedAt, sql`now() - make_interval(secs => ${leaseSeconds})`),
        ),
        inArray(
          syncStates.accountId,
          db.select({ id: mailAccounts.id }).from(mailAccounts).where(eq(mailAccounts.status, "active")),
        ),
      ),
    )
    .returning({ accountId: syncStates.accountId });
  return rows.map((r) => r.accountId);
}

/** Thrown when another worker took over (our lease expired): the work is retried, not lost. */
export class LeaseLostError extends Error {
  override name = "LeaseLostError";
  readonly kind = "transient" as const;
}
