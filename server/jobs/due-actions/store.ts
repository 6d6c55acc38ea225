import { and, asc, eq, inArray, lt, lte, notExists, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { dueActions, mailAccounts } from "../../db/schema.ts";

/**
 * Statuses of a due action. `waiting` is a run stopped by a revoked grant (reauth): not given up,
 * it runs again once none of the person's accounts needs reconnecting (decision 0073).
 */
export type DueActionStatus = "pending" | "running" | "done" | "failed" | "waiting";

/**
 * An action not yet started: the person may still take it back or move it (Undo, unsnooze, a new
 * snooze time). `running` is not among them: its handler may already have reached the provider.
 */
export const CANCELLABLE_STATUSES = [
  "pending",
  "failed",
  "waiting",
] as const satisfies readonly DueActionStatus[];

/** An action not done yet: the cancellable ones and the one running now. */
export const OPEN_STATUSES = [
  ...CANCELLABLE_STATUSES,
  "running",
] as const satisfies readonly DueActionStatus[];

/** How often a waiting action is looked at again when no reconnect wakes it (a missed signal). */
export const WAITING_RECHECK_MS = 60_000;

/** A claimed action as its handler sees it. */
export interface ClaimedAction {
  id: string;
  userId: string;
  kind: string;
  payload: unknown;
  ref: string | null;
  /** 1 on the first run; more means an earlier run failed or its worker died mid-way. */
  attempts: number;
  runAt: Date;
}

export interface NewDueAction {
  userId: string;
  kind: string;
  runAt: Date;
  payload: unknown;
  ref?: string | null;
}

/** The columns a claim answers (ClaimedAction), for every statement that claims. */
export const claimedColumns = {
  id: dueActions.id,
  userId: dueActions.userId,
  kind: dueActions.kind,
  payload: dueActions.payload,
  ref: dueActions.ref,
  attempts: dueActions.attempts,
  runAt: dueActions.runAt,
};

/** The columns that mark an action claimed by `workerId` until now + leaseMs (every claim sets them). */
export const claimedBy = (workerId: string, now: Date, leaseMs: number) => ({
  status: "running" as const,
  lockedBy: workerId,
  lockedUntil: new Date(now.getTime() + leaseMs),
});

/** The row of a new action (its status, attempts and lock take the table's defaults unless set). */
const newRow = (action: NewDueAction) => ({
  userId: action.userId,
  kind: action.kind,
  runAt: action.runAt,
  payload: action.payload,
  ref: action.ref ?? null,
});

/**
 * The due_actions table's statements (decision 0069). Every time comes from the caller (the
 * server's clock), never the database's now(), so tests move time with /api/_test/clock.
 */
export function createDueActionStore(db: Db) {
  /** Marks up to `limit` rows matching `where` (oldest first) running for `workerId`, and answers them. */
  async function claimWhere(
    workerId: string,
    now: Date,
    leaseMs: number,
    limit: number,
    where: SQL | undefined,
  ): Promise<ClaimedAction[]> {
    const due = db
      .select({ id: dueActions.id })
      .from(dueActions)
      .where(where)
      .orderBy(asc(dueActions.runAt))
      .limit(limit)
      .for("update", { skipLocked: true });
    return db
      .update(dueActions)
      .set({ ...claimedBy(workerId, now, leaseMs), attempts: sql`${dueActions.attempts} + 1` })
      .where(inArray(dueActions.id, due))
      .returning(claimedColumns);
  }

  return {
    async schedule(action: NewDueAction): Promise<{ id: string; runAt: Date }> {
      const [row] = await db
        .insert(dueActions)
        .values(newRow(action))
        .returning({ id: dueActions.id, runAt: dueActions.runAt });
      if (!row) throw new Error("due action was not stored");
      return row;
    },

    /**
     * Stores an action already claimed by `workerId`, for a caller that runs it at once
     * (sweeper.runClaimed): no sweep can take it between the insert and the run.
     */
    async scheduleClaimed(
      action: NewDueAction,
      workerId: string,
      now: Date,
      leaseMs: number,
    ): Promise<ClaimedAction> {
      const [row] = await db
        .insert(dueActions)
        .values({ ...newRow(action), ...claimedBy(workerId, now, leaseMs), attempts: 1 })
        .returning(claimedColumns);
      if (!row) throw new Error("due action was not stored");
      return row;
    },

    /**
     * Claims up to `limit` due actions for `workerId` until now + leaseMs: pending ones whose time
     * came, then running ones whose lease ran out (their worker died) and waiting ones whose
     * person reconnected. SKIP LOCKED lets two workers sweep at once without waiting on, or
     * taking, each other's rows; the UPDATE commits the claim before any handler runs, so a cancel
     * (Undo) can no longer take the row once it is claimed. The pending ones are asked apart,
     * oldest first along the (status, run_at) index, so a claim reads `limit` rows however long
     * the backlog (one OR over the three had the database sort the whole backlog each time).
     */
    async claim(workerId: string, now: Date, leaseMs: number, limit: number): Promise<ClaimedAction[]> {
      const pending = await claimWhere(
        workerId,
        now,
        leaseMs,
        limit,
        and(eq(dueActions.status, "pending"), lte(dueActions.runAt, now)),
      );
      if (pending.length >= limit) return pending;
      const others = await claimWhere(
        workerId,
        now,
        leaseMs,
        limit - pending.length,
        or(
          and(eq(dueActions.status, "running"), lt(dueActions.lockedUntil, now)),
          // Waiting for a reconnect: due again once no account of the person needs one.
          and(
            eq(dueActions.status, "waiting"),
            lte(dueActions.runAt, now),
            notExists(
              db
                .select({ one: sql`1` })
                .from(mailAccounts)
                .where(
                  and(eq(mailAccounts.userId, dueActions.userId), eq(mailAccounts.status, "reauth_required")),
                ),
            ),
          ),
        ),
      );
      return [...pending, ...others];
    },

    /** Done: only the claim's holder may say so; the payload (a mail's content) is not kept. */
    async complete(id: string, workerId: string, now: Date): Promise<boolean> {
      const rows = await db
        .update(dueActions)
        .set({ status: "done", doneAt: now, payload: {}, lockedBy: null, lockedUntil: null, lastError: null })
        .where(
          and(eq(dueActions.id, id), eq(dueActions.status, "running"), eq(dueActions.lockedBy, workerId)),
        )
        .returning({ id: dueActions.id });
      return rows.length > 0;
    },

    /** Back to pending at `runAt` (a retry), keeping why the last run failed. */
    async retryAt(id: string, workerId: string, runAt: Date, error: string): Promise<void> {
      await db
        .update(dueActions)
        .set({ status: "pending", runAt, lastError: error, lockedBy: null, lockedUntil: null })
        .where(
          and(eq(dueActions.id, id), eq(dueActions.status, "running"), eq(dueActions.lockedBy, workerId)),
        );
    },

    /** Given up: kept with its payload and the reason, for the person to see and act on. */
    async fail(id: string, workerId: string, error: string): Promise<void> {
      await db
        .update(dueActions)
        .set({ status: "failed", lastError: error, lockedBy: null, lockedUntil: null })
        .where(
          and(eq(dueActions.id, id), eq(dueActions.status, "running"), eq(dueActions.lockedBy, workerId)),
        );
    },

    /**
     * A revoked grant: the action is not given up but waits for the person to reconnect. It is
     * looked at again once no account of theirs needs reconnecting (at the latest every
     * WAITING_RECHECK_MS, at once when they reconnect: releaseWaiting).
     */
    async waitForReconnect(id: string, workerId: string, now: Date, error: string): Promise<void> {
      await db
        .update(dueActions)
        .set({
          status: "waiting",
          runAt: new Date(now.getTime() + WAITING_RECHECK_MS),
          lastError: error,
          lockedBy: null,
          lockedUntil: null,
        })
        .where(
          and(eq(dueActions.id, id), eq(dueActions.status, "running"), eq(dueActions.lockedBy, workerId)),
        );
    },

    /** The person reconnected an account: their waiting actions are due now. */
    async releaseWaiting(userId: string, now: Date): Promise<number> {
      const rows = await db
        .update(dueActions)
        .set({ runAt: now })
        .where(and(eq(dueActions.userId, userId), eq(dueActions.status, "waiting")))
        .returning({ id: dueActions.id });
      return rows.length;
    },

    /**
     * The person's Retry of an action that was given up: pending and due now. Its attempts are
     * kept, so a handler still knows an earlier run may have reached the provider (a held mail
     * looks its Message-ID up first); the run gets one try, and is shown again if it fails.
     */
    async retryFailed(userId: string, id: string, now: Date): Promise<boolean> {
      const rows = await db
        .update(dueActions)
        .set({ status: "pending", runAt: now })
        .where(and(eq(dueActions.id, id), eq(dueActions.userId, userId), eq(dueActions.status, "failed")))
        .returning({ id: dueActions.id });
      return rows.length > 0;
    },

    /** The person's Dismiss of an action given up: removed, as they chose; false when not theirs or not failed. */
    async dismissFailed(userId: string, id: string): Promise<boolean> {
      const rows = await db
        .delete(dueActions)
        .where(and(eq(dueActions.id, id), eq(dueActions.userId, userId), eq(dueActions.status, "failed")))
        .returning({ id: dueActions.id });
      return rows.length > 0;
    },

    /** The person's actions of any kind that need them: given up (failed) or waiting for a reconnect. */
    async listNeedingAttention(userId: string) {
      return db
        .select()
        .from(dueActions)
        .where(and(eq(dueActions.userId, userId), inArray(dueActions.status, ["failed", "waiting"])))
        .orderBy(asc(dueActions.runAt))
        .limit(200);
    },

    /**
     * Takes back the person's own action if it has not started (pending, or failed and kept):
     * deletes it and answers its payload; null when there is none of theirs in that state.
     */
    async cancel(userId: string, id: string, kind: string): Promise<unknown | null> {
      const rows = await db
        .delete(dueActions)
        .where(
          and(
            eq(dueActions.id, id),
            eq(dueActions.userId, userId),
            eq(dueActions.kind, kind),
            inArray(dueActions.status, CANCELLABLE_STATUSES),
          ),
        )
        .returning({ payload: dueActions.payload });
      return rows[0]?.payload ?? null;
    },

    async get(userId: string, id: string, kind: string) {
      const [row] = await db
        .select()
        .from(dueActions)
        .where(and(eq(dueActions.id, id), eq(dueActions.userId, userId), eq(dueActions.kind, kind)));
      return row;
    },

    /** The person's actions of a kind not yet done, soonest first. */
    async listOpen(userId: string, kind: string) {
      return db
        .select()
        .from(dueActions)
        .where(
          and(
            eq(dueActions.userId, userId),
            eq(dueActions.kind, kind),
            inArray(dueActions.status, OPEN_STATUSES),
          ),
        )
        .orderBy(asc(dueActions.runAt))
        .limit(500);
    },
  };
}

export type DueActionStore = ReturnType<typeof createDueActionStore>;
