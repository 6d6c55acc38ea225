import { and, eq, gte, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { aiConversations, aiUsage } from "../db/schema.ts";
import type { EventBus } from "../events.ts";

/** Token accounting and the conversation log; rows never carry mail text. */
export function createUsageRecorder(db: Db, events?: Pick<EventBus, "emit">) {
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
      const [row] = await db
        .insert(aiConversations)
        .values({ userId, kind, engine, emailId: emailId ?? null })
        .returning({ id: aiConversations.id });
      // The person asked for it (auto drafts are the agent's own): achievements count AI use.
      if (row && kind !== "auto_draft")
        events?.emit("ai.used", { userId, kind, emailId: emailId ?? null, conversationId: row.id });
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
