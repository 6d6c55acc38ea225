import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { dueActions } from "../../db/schema.ts";
import { type ClaimedAction, claimedBy, claimedColumns } from "../../jobs/due-actions/store.ts";

/**
 * The Scheduled list's changes to a held mail (issue 37): each is one conditional UPDATE that
 * applies only while the mail waits (pending) or was kept after failing, so a mail a worker has
 * claimed or sent is never changed under it. A failed mail goes back to pending with the change.
 */
export function createScheduledStore(db: Db) {
  const open = (userId: string, id: string, kind: string) =>
    and(
      eq(dueActions.id, id),
      eq(dueActions.userId, userId),
      eq(dueActions.kind, kind),
      inArray(dueActions.status, ["pending", "failed"]),
    );

  return {
    /** A new time (reschedule, or now for Send now); false when the mail is no longer waiting. */
    async moveTo(userId: string, id: string, kind: string, runAt: Date): Promise<boolean> {
      const rows = await db
        .update(dueActions)
        .set({ runAt, status: "pending", lastError: null })
        .where(open(userId, id, kind))
        .returning({ id: dueActions.id });
      return rows.length > 0;
    },

    /**
     * Send now: due at once and claimed by `workerId` in the same statement (sweeper.runClaimed),
     * so no sweep takes it before this process runs it; null when the mail is no longer waiting.
     */
    async claimNow(
      userId: string,
      id: string,
      kind: string,
      workerId: string,
      now: Date,
      leaseMs: number,
    ): Promise<ClaimedAction | null> {
      const [row] = await db
        .update(dueActions)
        .set({
          ...claimedBy(workerId, now, leaseMs),
          runAt: now,
          lastError: null,
          attempts: sql`${dueActions.attempts} + 1`,
        })
        .where(open(userId, id, kind))
        .returning(claimedColumns);
      return row ?? null;
    },

    /** Edit: the new payload (and time); false when the mail is no longer waiting. */
    async replace(userId: string, id: string, kind: string, payload: unknown, runAt: Date): Promise<boolean> {
      const rows = await db
        .update(dueActions)
        .set({ payload, runAt, status: "pending", lastError: null })
        .where(open(userId, id, kind))
        .returning({ id: dueActions.id });
      return rows.length > 0;
    },
  };
}

export type ScheduledStore = ReturnType<typeof createScheduledStore>;
