import { and, eq, inArray, isNotNull, or, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/client.ts";
import { dueActions, emails, mailAccounts } from "../../db/schema.ts";
import type { EventBus } from "../../events.ts";
import type { ClaimedAction, DueActionStore } from "../../jobs/due-actions/store.ts";
import type { Clock } from "../../lib/clock.ts";
import type { ProviderClientFactory } from "../../sync/types.ts";
import { accountSummaryColumns, syncAccountOf } from "../accounts.ts";

/** The due action kind of a follow-up reminder (issue 37, decision 0072). */
export const FOLLOWUP_ACTION = "followup.check";

/** What a reminder carries: where the mail went from, its Message-ID, to whom, and when. */
const followUpPayloadSchema = z.object({
  accountId: z.string().uuid(),
  messageId: z.string(),
  /** Lower-case addresses of To, Cc and Bcc. */
  recipients: z.array(z.string()).max(500),
  sentAt: z.string(),
});
export type FollowUpPayload = z.infer<typeof followUpPayloadSchema>;

/** The resurface_reason of a sent mail a reminder brought back ("No reply yet"). */
const NO_REPLY = "no_reply";

/** Reminders an arriving batch of mail may answer, looked at per sync. */
const CANCEL_BATCH = 200;

/**
 * "Remind me if no reply in" (issue 37): a `followup.check` due action per sent mail. When due,
 * if no mail from a recipient reached the conversation after the send, the sent mail returns to
 * the inbox at the provider (Gmail: INBOX added; Outlook: moved to Inbox) marked "No reply yet".
 * A reply that sync brings in first cancels the reminder; one that comes later clears the mark.
 */
export function createFollowUps(deps: {
  db: Db;
  clock: Clock;
  store: DueActionStore;
  clientFor: ProviderClientFactory;
  events: EventBus;
  /** Asks for a sync of the account (the sent mail has not arrived here yet). */
  requestSync?: (accountId: string) => Promise<void>;
  log: { warn(obj: object, msg: string): void };
}) {
  const { db, clock, store } = deps;

  /**
   * A reply: mail of the same account, not the person's own, from a recipient, received after the
   * send, in the sent mail's conversation (found by its Message-ID, or by the reply's headers
   * before the sent copy has synced).
   */
  async function replied(p: FollowUpPayload): Promise<boolean> {
    if (p.recipients.length === 0) return false;
    const sentConversation = db
      .select({ c: emails.conversationId })
      .from(emails)
      .where(and(eq(emails.accountId, p.accountId), eq(emails.internetMessageId, p.messageId)));
    const [row] = await db
      .select({ id: emails.id })
      .from(emails)
      .where(
        and(
          eq(emails.accountId, p.accountId),
          eq(emails.isDraft, false),
          sql`${emails.receivedAt} > ${new Date(p.sentAt)}`,
          inArray(sql`lower(${emails.fromAddress})`, p.recipients),
          or(
            inArray(emails.conversationId, sentConversation),
            eq(emails.inReplyTo, p.messageId),
            sql`strpos(coalesce(${emails.referencesHeader}, ''), ${p.messageId}) > 0`,
          ),
        ),
      )
      .limit(1);
    return row !== undefined;
  }

  /** After a sync of the account: reminders a reply has answered are deleted while still pending. */
  async function cancelAnswered(accountId: string): Promise<number> {
    const waiting = await db
      .select({ id: dueActions.id, payload: dueActions.payload })
      .from(dueActions)
      .where(
        and(
          eq(dueActions.kind, FOLLOWUP_ACTION),
          eq(dueActions.status, "pending"),
          sql`${dueActions.payload}->>'accountId' = ${accountId}`,
        ),
      )
      .limit(CANCEL_BATCH);
    const answered: string[] = [];
    for (const row of waiting) {
      const p = followUpPayloadSchema.safeParse(row.payload);
      if (p.success && (await replied(p.data))) answered.push(row.id);
    }
    if (answered.length === 0) return 0;
    const gone = await db
      .delete(dueActions)
      .where(and(inArray(dueActions.id, answered), eq(dueActions.status, "pending")))
      .returning({ id: dueActions.id });
    return gone.length;
  }

  /**
   * After a sync of the account: a sent mail that came back "No reply yet" and has since been
   * answered by a recipient loses the mark (the same test as the reminder's own, with the
   * recipients read from the stored sent row, whose reminder payload is gone once it ran).
   */
  async function clearAnsweredMarks(accountId: string): Promise<number> {
    const marked = await db
      .select({
        id: emails.id,
        messageId: emails.internetMessageId,
        to: emails.toRecipients,
        cc: emails.ccRecipients,
        sentAt: emails.receivedAt,
      })
      .from(emails)
      .where(
        and(
          // Along emails_user_resurfaced_idx (a handful of rows), not the account's whole mailbox:
          // this runs after every sync.
          sql`${emails.userId} = (select ${mailAccounts.userId} from ${mailAccounts} where ${mailAccounts.id} = ${accountId})`,
          isNotNull(emails.resurfacedAt),
          eq(emails.accountId, accountId),
          eq(emails.resurfaceReason, NO_REPLY),
        ),
      )
      .limit(CANCEL_BATCH);
    const answered: string[] = [];
    for (const row of marked) {
      if (!row.messageId) continue;
      const recipients = [...row.to, ...row.cc].map((a) => a.address.toLowerCase());
      const p = { accountId, messageId: row.messageId, recipients, sentAt: row.sentAt.toISOString() };
      if (await replied(p)) answered.push(row.id);
    }
    if (answered.length === 0) return 0;
    const cleared = await db
      .update(emails)
      .set({ resurfacedAt: null, resurfaceReason: null, updatedAt: clock.now() })
      .where(and(inArray(emails.id, answered), eq(emails.resurfaceReason, NO_REPLY)))
      .returning({ id: emails.id });
    return cleared.length;
  }

  return {
    cancelAnswered,
    clearAnsweredMarks,

    /** Stores the reminder of a sent mail, once per Message-ID (a retried send asks again). */
    async schedule(userId: string, payload: FollowUpPayload, runAt: Date): Promise<void> {
      const [existing] = await db
        .select({ id: dueActions.id })
        .from(dueActions)
        .where(
          and(
            eq(dueActions.userId, userId),
            eq(dueActions.kind, FOLLOWUP_ACTION),
            eq(dueActions.ref, payload.messageId),
          ),
        )
        .limit(1);
      if (existing) return;
      await store.schedule({ userId, kind: FOLLOWUP_ACTION, runAt, payload, ref: payload.messageId });
    },

    /** The sweep's handler. */
    async check(action: ClaimedAction): Promise<void> {
      const parsed = followUpPayloadSchema.safeParse(action.payload);
      if (!parsed.success)
        throw Object.assign(new Error("The reminder is unreadable."), { kind: "permanent" });
      const p = parsed.data;
      if (await replied(p)) return;
      const [account] = await db
        .select(accountSummaryColumns)
        .from(mailAccounts)
        .where(and(eq(mailAccounts.id, p.accountId), eq(mailAccounts.userId, action.userId)));
      // The account was disconnected: nothing left to bring back.
      if (!account) return;
      const [sent] = await db
        .select({ id: emails.id, providerId: emails.providerId })
        .from(emails)
        .where(and(eq(emails.accountId, p.accountId), eq(emails.internetMessageId, p.messageId)))
        .limit(1);
      if (!sent) {
        // The sent copy is not here yet (sync runs behind): ask for it and try again later.
        await deps.requestSync?.(p.accountId).catch(() => undefined);
        throw Object.assign(new Error("The sent mail has not synced yet."), { kind: "transient" });
      }
      // Gmail adds INBOX; Graph moves the message to Inbox and gives it a new id (re-keyed here).
      const moved = await deps.clientFor(syncAccountOf(account)).unarchive([sent.providerId]);
      const providerId = moved.get(sent.providerId) ?? sent.providerId;
      const marked = {
        inInbox: true,
        isRead: false,
        resurfacedAt: clock.now(),
        resurfaceReason: NO_REPLY,
        updatedAt: clock.now(),
      };
      try {
        await db
          .update(emails)
          .set({ ...marked, providerId })
          .where(eq(emails.id, sent.id));
      } catch {
        // A sync stored the moved message under its new id first: mark the row we have; the
        // next sync settles which row is the message (server/sync/rekey.ts).
        await db.update(emails).set(marked).where(eq(emails.id, sent.id));
      }
    },

    /**
     * After every sync of an account, in every role: cancels answered reminders and clears the
     * "No reply yet" mark of answered mail.
     */
    listen(): () => void {
      const warn = (msg: string) => (err: unknown) =>
        deps.log.warn({ reason: err instanceof Error ? err.message : "unknown" }, msg);
      return deps.events.on("emails.synced", async ({ accountId }) => {
        await cancelAnswered(accountId).catch(warn("follow-up cancel failed"));
        const cleared = await clearAnsweredMarks(accountId).catch(warn("follow-up mark clear failed"));
        if (cleared) deps.events.emit("emails.touched", { accountId });
      });
    },
  };
}

export type FollowUps = ReturnType<typeof createFollowUps>;
