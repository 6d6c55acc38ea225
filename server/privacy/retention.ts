import { and, eq, inArray, lt, sql } from "drizzle-orm";
import { type DataRetention, RETENTION_DAYS } from "../../contract/privacy.ts";
import type { Db } from "../db/client.ts";
import { agentDrafts, agentMemories, emails } from "../db/schema.ts";

const BATCH = 1_000;

export interface RetentionResult {
  emails: number;
  drafts: number;
  memories: number;
}

export function retentionCutoff(now: Date, retention: DataRetention): Date {
  return new Date(now.getTime() - RETENTION_DAYS[retention] * 86_400_000);
}

/**
 * Removes Mailwise's own copy of one person's mail received before the cutoff: the email rows
 * (headers, bodies, analysis), the agent replies prepared for them, and the memories whose newest
 * source mail is older than the cutoff. Nothing is asked of the provider: the mail in the person's
 * mailbox stays. Emails go in batches, each its own statement, so a big mailbox does not hold one
 * long lock against sync.
 */
export async function applyRetention(db: Db, userId: string, cutoff: Date): Promise<RetentionResult> {
  const result: RetentionResult = { emails: 0, drafts: 0, memories: 0 };
  for (;;) {
    const batch = await db
      .select({ id: emails.id })
      .from(emails)
      .where(and(eq(emails.userId, userId), lt(emails.receivedAt, cutoff)))
      .limit(BATCH);
    if (batch.length === 0) break;
    const ids = batch.map((r) => r.id);
    await db.transaction(async (tx) => {
      const drafts = await tx
        .delete(agentDrafts)
        .where(and(eq(agentDrafts.userId, userId), inArray(agentDrafts.emailId, ids)))
        .returning({ id: agentDrafts.id });
      const removed = await tx
        .delete(emails)
        .where(and(eq(emails.userId, userId), inArray(emails.id, ids)))
        .returning({ id: emails.id });
      result.drafts += drafts.length;
      result.emails += removed.length;
    });
    if (batch.length < BATCH) break;
  }
  const memories = await db
    .delete(agentMemories)
    .where(
      and(
        eq(agentMemories.userId, userId),
        lt(sql`coalesce(${agentMemories.mailReceivedAt}, ${agentMemories.updatedAt})`, cutoff),
      ),
    )
    .returning({ id: agentMemories.id });
  result.memories = memories.length;
  return result;
}
