import { and, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/client.ts";
import { emails, mailAccounts, syncStates } from "../db/schema.ts";
import type { EventBus } from "../events.ts";
import type { JobQueue } from "../jobs/queue.ts";
import { interactiveLoad } from "../lib/interactive-load.ts";
import type { AnalysisService } from "./analysis-service.ts";
import type { AutoDrafter } from "./drafting/auto-draft.ts";
import type { MemoryService, Observation } from "./memory-service.ts";

export const AI_JOBS = { analyze: "ai.analyze", autoDraft: "ai.auto-draft" } as const;

/** A backfill that stored no page for this long is stalled, and no longer holds analysis back. */
const BACKFILL_STALLED_SECONDS = 120;

/** Whether one of the user's accounts has a backfill storing pages right now. */
export async function backfillRunning(db: Db, userId: string): Promise<boolean> {
  const rows = await db
    .select({ accountId: syncStates.accountId })
    .from(syncStates)
    .innerJoin(mailAccounts, eq(mailAccounts.id, syncStates.accountId))
    .where(
      and(
        eq(mailAccounts.userId, userId),
        eq(syncStates.backfillDone, false),
        gt(syncStates.generation, 0),
        gt(syncStates.updatedAt, sql`now() - make_interval(secs => ${BACKFILL_STALLED_SECONDS})`),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/** Emails per analysis batch (one read, one write); a job runs batches until its time budget ends. */
export const ANALYSIS_BATCH = 200;
/**
 * The batch while the API is busy: its read of full rows and its one update hold PGlite's single
 * database thread a quarter as long, and batches wait their turn (decision 0081).
 */
export const BUSY_ANALYSIS_BATCH = 50;

const analyzeSchema = z.object({ userId: z.uuid() });
const autoDraftSchema = z.object({ userId: z.uuid(), emailId: z.uuid() });

/**
 * The AI's background work: analysis after each sync (emails.synced), auto-drafts for mail that
 * needs an answer, and memories from what the user does (replies, archiving unread mail).
 */
export function defineAiJobs(
  queue: JobQueue,
  deps: {
    db: Db;
    events: EventBus;
    analysis: AnalysisService;
    autoDrafter: AutoDrafter;
    memories: MemoryService;
    /** A job hands over to a fresh one after this long, so other queues get their turn. */
    budgetMs?: number;
    /** Analyse what each sync stored (off only in benchmarks of sync alone). */
    analyseAfterSync: boolean;
  },
) {
  const { db } = deps;
  const budgetMs = deps.budgetMs ?? 20_000;

  const requestAnalysis = async (userId: string) => {
    await queue.send(AI_JOBS.analyze, { userId }, { singletonKey: userId });
  };

  queue.define({
    name: AI_JOBS.analyze,
    schema: analyzeSchema,
    maxAttempts: 5,
    batchSize: 2,
    handler: async ({ userId }) => {
      const started = Date.now();
      // The first batch (the newest mail, what the person is looking at) runs at once; later
      // batches yield to interactive requests. Pacing the first one held a small mailbox's
      // analysis until the person's next actions, whose frames its refresh then delayed.
      for (let first = true; ; first = false) {
        if (!first) await interactiveLoad.turn();
        const batch = interactiveLoad.busy() ? BUSY_ANALYSIS_BATCH : ANALYSIS_BATCH;
        const done = await deps.analysis.analysePending(userId, batch);
        if (done < batch) return;
        // The batch above took the newest mail. What is left is older mail a backfill is still
        // storing: it waits for the backfill's end (which asks again), so the backfill runs at
        // full speed instead of sharing the CPU and the database with the analyzer.
        if (await backfillRunning(db, userId)) return;
        if (Date.now() - started > budgetMs) {
          await queue.send(AI_JOBS.analyze, { userId });
          return;
        }
      }
    },
  });

  queue.define({
    name: AI_JOBS.autoDraft,
    schema: autoDraftSchema,
    maxAttempts: 5,
    handler: async ({ userId, emailId }) => {
      await deps.autoDrafter.draftFor(userId, emailId);
    },
  });

  deps.events.on("emails.synced", async ({ accountId }) => {
    if (!deps.analyseAfterSync) return;
    const [account] = await db
      .select({ userId: mailAccounts.userId })
      .from(mailAccounts)
      .where(eq(mailAccounts.id, accountId));
    if (account) await requestAnalysis(account.userId);
  });

  // Who matters: the sender of every email the user answers.
  deps.events.on("email.sent", async ({ userId, inReplyToId }) => {
    if (!inReplyToId) return;
    const [row] = await db
      .select({
        fromName: emails.fromName,
        fromAddress: emails.fromAddress,
        userId: emails.userId,
        receivedAt: emails.receivedAt,
      })
      .from(emails)
      .where(eq(emails.id, inReplyToId));
    if (!row || row.userId !== userId || !row.fromAddress) return;
    const who = row.fromName ? `${row.fromName} <${row.fromAddress}>` : row.fromAddress;
    await deps.memories.learn(userId, [
      {
        kind: "contact",
        key: row.fromAddress,
        content: `You reply to ${who}`,
        source: "reply",
        mailAt: row.receivedAt,
      },
    ]);
  });

  // What they ignore: senders whose mail is archived without being read.
  deps.events.on("email.archived", async ({ userId, emailIds }) => {
    if (emailIds.length === 0) return;
    const rows = await db
      .select({
        fromAddress: emails.fromAddress,
        isRead: emails.isRead,
        userId: emails.userId,
        receivedAt: emails.receivedAt,
      })
      .from(emails)
      .where(inArray(emails.id, emailIds.slice(0, 1000)));
    const observations: Observation[] = rows
      .filter((r) => r.userId === userId && !r.isRead && r.fromAddress)
      .map((r) => ({
        kind: "ignore",
        key: r.fromAddress,
        content: `You archive mail from ${r.fromAddress} without reading it`,
        source: "archive",
        mailAt: r.receivedAt,
      }));
    await deps.memories.learn(userId, observations);
  });

  return {
    requestAnalysis,
    async requestAutoDraft(userId: string, emailIds: readonly string[]) {
      for (const emailId of emailIds) {
        await queue.send(AI_JOBS.autoDraft, { userId, emailId }, { singletonKey: emailId });
      }
    },
    /** Worker start: users with unanalysed mail (a crash or a lost event) get a job. */
    async kick(): Promise<void> {
      const rows = await db
        .selectDistinct({ userId: emails.userId })
        .from(emails)
        .where(isNull(emails.aiAnalysis))
        .limit(500);
      for (const r of rows) await requestAnalysis(r.userId);
    },
    /** Unanalysed emails of a user (tests and progress). */
    async pending(userId: string): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(emails)
        .where(sql`${emails.userId} = ${userId} and ${emails.aiAnalysis} is null`);
      return row?.n ?? 0;
    },
  };
}
