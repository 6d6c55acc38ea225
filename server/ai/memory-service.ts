import { and, count, desc, eq, inArray, sql } from "drizzle-orm";
import type { Memory } from "../../contract/ai.ts";
import type { Db } from "../db/client.ts";
import { agentMemories, aiConversations, emails } from "../db/schema.ts";
import { DomainError } from "../http/errors.ts";
import type { Clock } from "../lib/clock.ts";

export type MemoryKind = Memory["kind"];

export interface Observation {
  kind: MemoryKind;
  /** Normalised identity: a lower-case address for contact/ignore, the text for facts. */
  key: string;
  content: string;
  source: "analysis" | "reply" | "archive" | "sent";
  /** When the mail it was learned from was received (retention removes memories of old mail only). */
  mailAt?: Date;
}

/** What the agent knows about one sender, for importance and drafting. */
export interface SenderSignals {
  repliedCount: number;
  archivedUnreadCount: number;
}

const MAX_KEY = 300;

/**
 * The agent's memory, owned by the PERSON (users.id): it survives mailbox changes. Observations
 * are upserts on (user, kind, key) that raise a weight, so the table stays small.
 */
export function createMemoryService(deps: { db: Db; clock: Clock }) {
  const { db } = deps;

  async function learn(userId: string, observations: readonly Observation[]): Promise<void> {
    const unique = new Map<string, Observation>();
    for (const o of observations) {
      const key = o.key.trim().toLowerCase().slice(0, MAX_KEY);
      if (!key || !o.content.trim()) continue;
      const id = `${o.kind}\u0000${key}`;
      const seen = unique.get(id)?.mailAt;
      const mailAt = seen && (!o.mailAt || seen > o.mailAt) ? seen : o.mailAt;
      unique.set(id, { ...o, key, ...(mailAt ? { mailAt } : {}) });
    }
    if (unique.size === 0) return;
    const now = deps.clock.now();
    await db
      .insert(agentMemories)
      .values(
        [...unique.values()].map((o) => ({
          userId,
          kind: o.kind,
          key: o.key,
          content: o.content.slice(0, 500),
          source: o.source,
          mailReceivedAt: o.mailAt ?? null,
          createdAt: now,
          updatedAt: now,
        })),
      )
      .onConflictDoUpdate({
        target: [agentMemories.userId, agentMemories.kind, agentMemories.key],
        set: {
          weight: sql`${agentMemories.weight} + 1`,
          content: sql`excluded.content`,
          // The newest mail behind the memory; greatest() skips nulls.
          mailReceivedAt: sql`greatest(${agentMemories.mailReceivedAt}, excluded.mail_received_at)`,
          updatedAt: now,
        },
      });
  }

  return {
    learn,

    async list(userId: string): Promise<Memory[]> {
      const rows = await db
        .select()
        .from(agentMemories)
        .where(eq(agentMemories.userId, userId))
        .orderBy(desc(agentMemories.updatedAt), desc(agentMemories.id))
        .limit(500);
      return rows.map((r) => ({
        id: r.id,
        kind: r.kind as MemoryKind,
        content: r.content,
        source: r.source,
        weight: r.weight,
        createdAt: r.createdAt.toISOString(),
        updatedAt: r.updatedAt.toISOString(),
      }));
    },

    async remove(userId: string, id: string): Promise<void> {
      const deleted = await db
        .delete(agentMemories)
        .where(and(eq(agentMemories.id, id), eq(agentMemories.userId, userId)))
        .returning({ id: agentMemories.id });
      if (deleted.length === 0) throw new DomainError("not_found", "No such memory.");
    },

    async insights(userId: string): Promise<{ totalMemories: number; totalConversations: number }> {
      const [m] = await db.select({ n: count() }).from(agentMemories).where(eq(agentMemories.userId, userId));
      const [c] = await db
        .select({ n: count() })
        .from(aiConversations)
        .where(eq(aiConversations.userId, userId));
      return { totalMemories: m?.n ?? 0, totalConversations: c?.n ?? 0 };
    },

    /** Per-sender signals for a batch of senders: replies (memories and sent mail) and ignored mail. */
    async senderSignals(userId: string, senders: readonly string[]): Promise<Map<string, SenderSignals>> {
      const keys = [...new Set(senders.map((s) => s.toLowerCase()).filter(Boolean))];
      const out = new Map<string, SenderSignals>();
      if (keys.length === 0) return out;
      const get = (k: string) => {
        let s = out.get(k);
        if (!s) {
          s = { repliedCount: 0, archivedUnreadCount: 0 };
          out.set(k, s);
        }
        return s;
      };
      const rows = await db
        .select({ kind: agentMemories.kind, key: agentMemories.key, weight: agentMemories.weight })
        .from(agentMemories)
        .where(
          and(
            eq(agentMemories.userId, userId),
            inArray(agentMemories.kind, ["contact", "ignore"]),
            inArray(agentMemories.key, keys),
          ),
        );
      for (const r of rows) {
        if (r.kind === "contact") get(r.key).repliedCount += r.weight;
        else get(r.key).archivedUnreadCount += r.weight;
      }
      // Sent mail still in the mailbox counts too (memories may be younger than the mail).
      const address = sql<string>`lower(r->>'address')`;
      const sent = await db
        .select({ address, n: sql<number>`count(*)::int` })
        .from(sql`${emails} cross join lateral jsonb_array_elements(${emails.toRecipients}) r`)
        // Written as the partial index's predicate (emails_user_sent_idx), so every plan can use it.
        .where(and(eq(emails.userId, userId), sql`${emails.isSent}`, inArray(address, keys)))
        .groupBy(address);
      for (const r of sent) get(r.address).repliedCount += Number(r.n);
      return out;
    },

    /** The user's writing habits learnt from sent mail (greeting, sign-off), most seen first. */
    async style(userId: string): Promise<{ greeting?: string; signOff?: string }> {
      const rows = await db
        .select({ key: agentMemories.key, content: agentMemories.content })
        .from(agentMemories)
        .where(and(eq(agentMemories.userId, userId), eq(agentMemories.kind, "style")))
        .orderBy(desc(agentMemories.weight))
        .limit(20);
      const find = (prefix: string) =>
        rows.find((r) => r.key.startsWith(prefix))?.key.slice(prefix.length) || undefined;
      const greeting = find("greeting:");
      const signOff = find("signoff:");
      return { ...(greeting ? { greeting } : {}), ...(signOff ? { signOff } : {}) };
    },
  };
}

export type MemoryService = ReturnType<typeof createMemoryService>;
