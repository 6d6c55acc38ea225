import { and, count, desc, eq, gte, lt, sql } from "drizzle-orm";
import type { EmailAnalytics } from "../../contract/mail.ts";
import type { Db } from "../db/client.ts";
import { emails } from "../db/schema.ts";
import type { Clock } from "../lib/clock.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
const TOP_SENDERS = 5;

/**
 * GET /api/emails/analytics: mail received and read per UTC day over the last N days, and the
 * senders who wrote most. Counted from the person's own rows (every query scoped to the user);
 * sent, trashed and spam mail are not "received".
 */
export function createAnalyticsService(deps: { db: Db; clock: Clock }) {
  const { db } = deps;

  return {
    async analytics(userId: string, days: number): Promise<EmailAnalytics> {
      const now = deps.clock.now();
      const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + DAY_MS);
      const start = new Date(end.getTime() - days * DAY_MS);
      const received = and(
        eq(emails.userId, userId),
        sql`not ${emails.isSent} and not ${emails.isTrashed} and not ${emails.isSpam}`,
        gte(emails.receivedAt, start),
        lt(emails.receivedAt, end),
      );
      const receivedDay = sql<string>`to_char(${emails.receivedAt} at time zone 'UTC', 'YYYY-MM-DD')`;
      const readDay = sql<string>`to_char(${emails.readAt} at time zone 'UTC', 'YYYY-MM-DD')`;
      const sender = sql<string>`lower(${emails.fromAddress})`;
      const [receivedRows, readRows, senderRows] = await Promise.all([
        db.select({ day: receivedDay, n: count() }).from(emails).where(received).groupBy(receivedDay),
        db
          .select({ day: readDay, n: count() })
          .from(emails)
          .where(and(eq(emails.userId, userId), gte(emails.readAt, start), lt(emails.readAt, end)))
          .groupBy(readDay),
        db
          .select({ address: sender, name: sql<string>`max(${emails.fromName})`, n: count() })
          .from(emails)
          .where(and(received, sql`${emails.fromAddress} <> ''`))
          .groupBy(sender)
          .orderBy(desc(count()), sender)
          .limit(TOP_SENDERS),
      ]);
      const receivedBy = new Map(receivedRows.map((r) => [r.day, Number(r.n)]));
      const readBy = new Map(readRows.map((r) => [r.day, Number(r.n)]));
      const series = Array.from({ length: days }, (_, i) => {
        const date = new Date(start.getTime() + i * DAY_MS).toISOString().slice(0, 10);
        return { date, received: receivedBy.get(date) ?? 0, read: readBy.get(date) ?? 0 };
      });
      return {
        days: series,
        topSenders: senderRows.map((r) => ({ name: r.name ?? "", address: r.address, count: Number(r.n) })),
      };
    },
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
