import { and, eq, isNull, notInArray, or, sql } from "drizzle-orm";
import type { ActionItems } from "../../contract/mail.ts";
import type { Db } from "../db/client.ts";
import { emails } from "../db/schema.ts";
import { actionReason } from "./action-rules.ts";
import { formatSender } from "./presenters.ts";

/** How many recent unread inbox emails are examined; older unread mail is not an action item. */
const SCAN_LIMIT = 500;
/** Items returned (the dashboard shows 3; the count covers all matches). */
const ITEM_LIMIT = 20;

/** GET /api/emails/action-items: the rules of action-rules.ts over recent unread inbox mail. */
export function createActionItemFinder(db: Db) {
  return {
    async find(userId: string): Promise<ActionItems> {
      const rows = await db
        .select({
          id: emails.id,
          fromName: emails.fromName,
          fromAddress: emails.fromAddress,
          subject: emails.subject,
          snippet: emails.snippet,
          bucket: emails.bucket,
          listUnsubscribe: emails.listUnsubscribe,
          aiAnalysis: emails.aiAnalysis,
        })
        .from(emails)
        .where(
          and(
            eq(emails.userId, userId),
            sql`${emails.inInbox} and not ${emails.isTrashed} and not ${emails.isSpam} and not ${emails.isRead}`,
            // Bulk mail is cut in SQL already; the rules check again for rows without a bucket.
            or(isNull(emails.bucket), notInArray(emails.bucket, ["newsletters", "promotions", "social"])),
            isNull(emails.listUnsubscribe),
          ),
        )
        .orderBy(sql`${emails.receivedAt} desc nulls last`, sql`${emails.id} desc nulls last`)
        .limit(SCAN_LIMIT);
      const items: ActionItems["items"] = [];
      let count = 0;
      for (const row of rows) {
        const reason = actionReason(row);
        if (!reason) continue;
        count += 1;
        if (items.length < ITEM_LIMIT) {
          items.push({
            id: row.id,
            from: formatSender(row.fromName, row.fromAddress),
            subject: row.subject,
            reason,
          });
        }
      }
      return { count, items };
    },
  };
}

export type ActionItemFinder = ReturnType<typeof createActionItemFinder>;
