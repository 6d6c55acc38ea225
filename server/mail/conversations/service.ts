import { and, asc, eq, sql } from "drizzle-orm";
import type { Conversation, ConversationPatch, MailSettings } from "../../../contract/conversations.ts";
import type { Db } from "../../db/client.ts";
import { emails, syncStates, users } from "../../db/schema.ts";
import type { EventBus } from "../../events.ts";
import { DomainError } from "../../http/errors.ts";
import type { Clock } from "../../lib/clock.ts";
import { withProviderDeadline } from "../../providers/http/deadline.ts";
import type { ProviderClientFactory } from "../../sync/types.ts";
import { upsertPage } from "../../sync/upsert.ts";
import { accountDirectory, accountsOf, syncAccountOf, UNKNOWN_ACCOUNT } from "../accounts.ts";
import type { ReadCache } from "../cache/read-cache.ts";
import type { EmailActions, EmailChange } from "../email-actions.ts";
import { summaryColumns } from "../email-lister.ts";
import { sendDelayOf } from "../outbox/send-delay.ts";
import { presentEmail } from "../presenters.ts";

/** How long opening a conversation waits for the provider's copy of it before showing ours. */
const FETCH_DEADLINE_MS = 4_000;
/** A conversation fetched this recently is not fetched again when it opens (per process). */
const REFETCH_AFTER_MS = 60_000;
/** The most rows the reader shows of one conversation (newest kept). */
const MAX_MESSAGES = 500;
/** Reads of the conversation's rows an action may take when they change under it (see applyWhole). */
const ACT_ATTEMPTS = 3;

/** Rows a conversation shows and acts on: everything but trash, spam and drafts. */
const shown = sql`not ${emails.isTrashed} and not ${emails.isSpam} and not ${emails.isDraft}`;

/** "Re: Re: Fwd: Budget" -> "Budget": the conversation's subject without reply prefixes. */
export function baseSubject(subject: string): string {
  let text = subject.trim();
  for (let i = 0; i < 20; i += 1) {
    const next = text.replace(/^(?:re|fwd?|aw|sv|wg)(?:\s*\[\d{1,4}\])?\s*:\s*/i, "");
    if (next === text) break;
    text = next;
  }
  return text;
}

/**
 * Conversations (issue 35, decision 0061): a conversation's messages oldest to newest (fetching
 * what the provider has and we did not store), and read/archive/trash on all of them through the
 * same email actions as single messages, so write-back, rollback, pending and settle hold.
 */
export function createConversations(deps: {
  db: Db;
  clock: Clock;
  providerClient: ProviderClientFactory;
  actions: Pick<EmailActions, "apply">;
  /** `emails.synced` after an open stored the provider's missing messages (analysis, contacts). */
  events: Pick<EventBus, "emit">;
  /** Dropped before the open answers when it stored messages: the next list shows them. */
  readCache: Pick<ReadCache, "invalidateUser">;
  log: { warn(obj: object, msg: string): void };
}) {
  const { db } = deps;
  const fetchedAt = new Map<string, number>();

  async function rows(userId: string, id: string) {
    return db
      .select({
        ...summaryColumns,
        bodyHtml: emails.bodyHtml,
        bodyText: emails.bodyText,
        writePendingAt: emails.writePendingAt,
        providerId: emails.providerId,
        isSent: emails.isSent,
      })
      .from(emails)
      .where(and(eq(emails.userId, userId), eq(emails.conversationId, id), shown))
      .orderBy(asc(emails.receivedAt), asc(emails.id))
      .limit(MAX_MESSAGES);
  }

  /** Stores the messages of the thread the provider has and we do not; never fails the open. */
  async function fetchMissing(userId: string, accountId: string, threadId: string, known: Set<string>) {
    const key = `${accountId}:${threadId}`;
    const last = fetchedAt.get(key);
    if (last !== undefined && deps.clock.nowMs() - last < REFETCH_AFTER_MS) return false;
    fetchedAt.set(key, deps.clock.nowMs());
    if (fetchedAt.size > 10_000) fetchedAt.clear();
    const account = (await accountsOf(db, userId)).find((a) => a.id === accountId);
    if (account?.status !== "active") return false;
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new Error("conversation fetch deadline")),
      FETCH_DEADLINE_MS,
    );
    try {
      const started = deps.clock.now();
      const client = deps.providerClient(syncAccountOf(account));
      const messages = await withProviderDeadline(controller.signal, () => client.getThread(threadId));
      const missing = messages.filter(
        (m) => !known.has(m.providerId) && !m.isDraft && !m.isTrashed && !m.isSpam,
      );
      if (missing.length === 0) return false;
      const [state] = await db
        .select({ generation: syncStates.generation })
        .from(syncStates)
        .where(eq(syncStates.accountId, accountId));
      await db.transaction((tx) =>
        upsertPage(tx, syncAccountOf(account), missing, state?.generation ?? 0, started),
      );
      deps.readCache.invalidateUser(userId);
      // As a sync's own rows: the new messages get analysed and their senders join the contacts.
      deps.events.emit("emails.synced", { accountId });
      return true;
    } catch (err) {
      deps.log.warn(
        { err, accountId },
        "conversation fetch from the provider failed; showing the stored messages",
      );
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  async function present(
    userId: string,
    id: string,
    list: Awaited<ReturnType<typeof rows>>,
  ): Promise<Conversation> {
    const accounts = await accountDirectory(db, userId);
    return {
      id,
      subject: baseSubject(list[0]?.subject ?? ""),
      messages: list.map((row) => presentEmail(row, accounts.get(row.accountId) ?? UNKNOWN_ACCOUNT)),
    };
  }

  /** The ids of the conversation's rows `change` would alter (none already in that state). */
  async function targets(userId: string, id: string, change: EmailChange): Promise<string[]> {
    const conditions = [eq(emails.userId, userId), eq(emails.conversationId, id)];
    if (change.trash) conditions.push(sql`not ${emails.isTrashed}`, sql`not ${emails.isDraft}`);
    else conditions.push(shown);
    // The person's own sent mail stays where it is: only received mail enters or leaves the inbox,
    // and only received mail turns unread.
    if (change.isArchived === true) conditions.push(sql`${emails.inInbox}`);
    if (change.isArchived === false) conditions.push(sql`not ${emails.inInbox} and not ${emails.isSent}`);
    if (change.isRead === true) conditions.push(sql`not ${emails.isRead}`);
    if (change.isRead === false) conditions.push(sql`${emails.isRead} and not ${emails.isSent}`);
    const found = await db
      .select({ id: emails.id })
      .from(emails)
      .where(and(...conditions));
    return found.map((r) => r.id);
  }

  async function exists(userId: string, id: string): Promise<boolean> {
    const [row] = await db
      .select({ id: emails.id })
      .from(emails)
      .where(and(eq(emails.userId, userId), eq(emails.conversationId, id)))
      .limit(1);
    return row !== undefined;
  }

  /**
   * Applies `change` to the conversation's rows. A sync or a write-back's re-key running at the
   * same moment can replace a row (a Graph move stores the mail under a new id): the rows are then
   * read again, a few times, rather than failing the person's click with a 404.
   */
  async function applyWhole(userId: string, id: string, change: EmailChange): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      const ids = await targets(userId, id, change);
      if (ids.length === 0) return;
      try {
        await deps.actions.apply(userId, ids, change);
        return;
      } catch (err) {
        const replaced = err instanceof DomainError && err.code === "not_found";
        if (!replaced || attempt >= ACT_ATTEMPTS) throw err;
      }
    }
  }

  async function act(userId: string, id: string, changes: EmailChange[]): Promise<Conversation> {
    if (!(await exists(userId, id))) throw new DomainError("not_found", "No such conversation.");
    for (const change of changes) await applyWhole(userId, id, change);
    return present(userId, id, await rows(userId, id));
  }

  return {
    /** Oldest to newest, with bodies; 404 when the user has no such conversation. */
    async get(userId: string, id: string): Promise<Conversation> {
      let list = await rows(userId, id);
      const first = list[0];
      if (!first) throw new DomainError("not_found", "No such conversation.");
      if (first.threadId) {
        const known = new Set(list.map((r) => r.providerId));
        if (await fetchMissing(userId, first.accountId, first.threadId, known)) list = await rows(userId, id);
      }
      return present(userId, id, list);
    },

    /** Read/unread and archive/unarchive on every message it concerns. */
    patch(userId: string, id: string, patch: ConversationPatch): Promise<Conversation> {
      const changes: EmailChange[] = [];
      if (patch.isRead !== undefined) changes.push({ isRead: patch.isRead });
      if (patch.isArchived !== undefined) changes.push({ isArchived: patch.isArchived });
      return act(userId, id, changes);
    },

    /** Moves every message to the trash; answers the conversation as it is left (usually empty). */
    trash(userId: string, id: string): Promise<Conversation> {
      return act(userId, id, [{ trash: true }]);
    },

    async settings(userId: string): Promise<MailSettings> {
      const [row] = await db
        .select({ conversationView: users.conversationView, sendDelaySeconds: users.sendDelaySeconds })
        .from(users)
        .where(eq(users.id, userId));
      if (!row) throw new DomainError("not_found", "No such user.");
      return { conversationView: row.conversationView, sendDelaySeconds: sendDelayOf(row.sendDelaySeconds) };
    },

    async updateSettings(userId: string, patch: Partial<MailSettings>): Promise<MailSettings> {
      const [row] = await db
        .update(users)
        .set({
          ...(patch.conversationView !== undefined ? { conversationView: patch.conversationView } : {}),
          ...(patch.sendDelaySeconds !== undefined ? { sendDelaySeconds: patch.sendDelaySeconds } : {}),
        })
        .where(eq(users.id, userId))
        .returning({ conversationView: users.conversationView, sendDelaySeconds: users.sendDelaySeconds });
      if (!row) throw new DomainError("not_found", "No such user.");
      return { conversationView: row.conversationView, sendDelaySeconds: sendDelayOf(row.sendDelaySeconds) };
    },
  };
}

export type Conversations = ReturnType<typeof createConversations>;
