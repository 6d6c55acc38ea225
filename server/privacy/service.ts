import { and, eq, isNull, lt, lte, or } from "drizzle-orm";
import { z } from "zod";
import { DELETION_GRACE_DAYS, type PrivacyDeleteResponse } from "../../contract/privacy.ts";
import type { Db } from "../db/client.ts";
import { privacySettings, users } from "../db/schema.ts";
import type { JobQueue } from "../jobs/queue.ts";
import type { Clock } from "../lib/clock.ts";
import type { AccountDeleter } from "./deletion.ts";
import { exportChunks } from "./export.ts";
import { applyRetention, retentionCutoff } from "./retention.ts";
import { createPrivacySettingsService, retentionOf } from "./settings.ts";

export const PRIVACY_SWEEP_JOB = "privacy.sweep";
const DAY_MS = 86_400_000;
/** People whose retention run is due, handled per sweep; the next sweep takes the rest. */
const RETENTION_PER_SWEEP = 200;

interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * Privacy settings, deletion (immediate or scheduled) and the sweep that carries out what is due:
 * scheduled deletions whose date the server clock has passed, and each person's daily retention
 * run. The sweep is a durable pg-boss job that worker roles enqueue every `sweepSeconds`; what is
 * due lives in privacy_settings, so a restart loses nothing and the next sweep picks it up.
 */
export function createPrivacyServices(deps: {
  db: Db;
  clock: Clock;
  queue: JobQueue;
  deleter: AccountDeleter;
  sweepSeconds: number;
  log: Log;
}) {
  const { db, clock, queue, deleter, log } = deps;
  const settings = createPrivacySettingsService({ db, clock });

  async function deleteDue(): Promise<number> {
    const due = await db
      .select({ userId: privacySettings.userId })
      .from(privacySettings)
      .where(lte(privacySettings.deletionScheduledFor, clock.now()));
    let deleted = 0;
    for (const { userId } of due) {
      // Cancelled since the select? Then the row no longer qualifies and nothing happens.
      const [still] = await db
        .select({ userId: privacySettings.userId })
        .from(privacySettings)
        .where(
          and(eq(privacySettings.userId, userId), lte(privacySettings.deletionScheduledFor, clock.now())),
        );
      if (!still) continue;
      const report = await deleter.deleteAccount(userId);
      log.info({ ...report }, "scheduled account deletion carried out");
      deleted += 1;
    }
    return deleted;
  }

  /** A person whose retention has not run since `dueBefore` (or never). */
  const runDue = (dueBefore: Date) =>
    or(isNull(privacySettings.retentionRunAt), lt(privacySettings.retentionRunAt, dueBefore));

  /**
   * Marks the person's run of today as taken, unless another sweep took it since they were read:
   * sweeps may overlap, and one that read the person before the other marked them would run again,
   * with a retention changed in between (a run after a switch to minimal the same day).
   */
  async function claimRun(userId: string, now: Date, dueBefore: Date): Promise<boolean> {
    const claimed = await db
      .insert(privacySettings)
      .values({ userId, retentionRunAt: now, updatedAt: now })
      .onConflictDoUpdate({
        target: privacySettings.userId,
        set: { retentionRunAt: now },
        setWhere: runDue(dueBefore),
      })
      .returning({ userId: privacySettings.userId })
      // The person may be deleted meanwhile: the foreign key then refuses the insert.
      .catch(() => []);
    return claimed.length > 0;
  }

  async function retentionDue(): Promise<number> {
    const now = clock.now();
    const dueBefore = new Date(now.getTime() - DAY_MS);
    const people = await db
      .select({
        id: users.id,
        dataRetention: privacySettings.dataRetention,
        lastRun: privacySettings.retentionRunAt,
      })
      .from(users)
      .leftJoin(privacySettings, eq(privacySettings.userId, users.id))
      .where(runDue(dueBefore))
      .limit(RETENTION_PER_SWEEP);
    let ran = 0;
    for (const person of people) {
      if (!(await claimRun(person.id, now, dueBefore))) continue;
      ran += 1;
      const retention = retentionOf(
        person.dataRetention === null ? undefined : { dataRetention: person.dataRetention },
      );
      try {
        const removed = await applyRetention(db, person.id, retentionCutoff(now, retention));
        if (removed.emails + removed.memories > 0)
          log.info({ ...removed, retention }, "retention removed old copies");
      } catch (err) {
        // Not done: the next sweep (or the job's retry) runs it again.
        await db
          .update(privacySettings)
          .set({ retentionRunAt: person.lastRun })
          .where(eq(privacySettings.userId, person.id))
          .catch(() => undefined);
        throw err;
      }
    }
    return ran;
  }

  async function sweep(): Promise<{ deleted: number; retained: number }> {
    return { deleted: await deleteDue(), retained: await retentionDue() };
  }

  queue.define({
    name: PRIVACY_SWEEP_JOB,
    schema: z.object({}),
    maxAttempts: 3,
    batchSize: 1,
    handler: async () => {
      await sweep();
    },
  });

  let timer: NodeJS.Timeout | undefined;
  const requestSweep = () =>
    queue
      .send(PRIVACY_SWEEP_JOB, {}, { singletonKey: PRIVACY_SWEEP_JOB, wake: true })
      .catch((err: unknown) =>
        log.error({ reason: err instanceof Error ? err.message : "unknown" }, "privacy sweep not queued"),
      );

  return {
    settings,
    /** The person's export as JSON text chunks (export.ts); stream it, never join it. */
    exportFor(userId: string): AsyncGenerator<string> {
      return exportChunks(db, clock, settings, userId);
    },
    /** The server clock's now, for the export's file name. */
    now: () => clock.now(),
    async scheduleDeletion(userId: string): Promise<PrivacyDeleteResponse> {
      const at = new Date(clock.nowMs() + DELETION_GRACE_DAYS * DAY_MS);
      await settings.setDeletion(userId, at);
      return { deleted: false, scheduledFor: at.toISOString() };
    },
    async cancelDeletion(userId: string): Promise<void> {
      await settings.setDeletion(userId, null);
    },
    async deleteNow(userId: string): Promise<PrivacyDeleteResponse> {
      const report = await deleter.deleteAccount(userId);
      log.info({ ...report }, "account deleted at the person's request");
      return { deleted: true, scheduledFor: null };
    },
    /** Runs one sweep in this process (the job's handler; tests). */
    sweep,
    /** Worker roles: a sweep soon after start (catching up on what a restart left) and then regularly. */
    startScheduler(): void {
      if (timer) return;
      void requestSweep();
      timer = setInterval(requestSweep, deps.sweepSeconds * 1000);
      timer.unref();
    },
    stopScheduler(): void {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}

export type PrivacyServices = ReturnType<typeof createPrivacyServices>;
