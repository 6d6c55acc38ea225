import { and, eq, gte, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { aiConversations, aiUsage } from "../db/schema.ts";

/** Token accounting and the conversation log; rows never carry mail text. */
export function createUsageRecorder(db: Db) {
  return {
    async record(row: {
      userId: string;
      task: string;
      engine: string;
      inputTokens: number;
      outputTokens: number;
      outcome: "ok" | "failed";
    }): Promise<void> {
      await db.insert(aiUsage).values(row);
    },
    async conversation(userId: string, kind: string, engine: string, emailId?: string): Promise<void> {
      await db.insert(aiConversations).values({ userId, kind, engine, emailId: emailId ?? null });
    },
    /** Tokens the user spent since `since`, per engine. */
    async totals(userId: string, since: Date) {
      return db
        .select({
          engine: aiUsage.engine,
          inputTokens: sql<number>`coalesce(sum(${aiUsage.inputTokens}), 0)::int`,
          outputTokens: sql<number>`coalesce(sum(${aiUsage.outputTokens}), 0)::int`,
          calls: sql<number>`count(*)::int`,
        })
        .from(aiUsage)
        .where(and(eq(aiUsage.userId, userId), gte(aiUsage.createdAt, since)))
        .groupBy(aiUsage.engine);
    },
  };
}

export type UsageRecorder = ReturnType<typeof createUsageRecorder>;
