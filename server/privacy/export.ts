import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import {
  agentDrafts,
  agentMemories,
  agents,
  aiConversations,
  aiUsage,
  calendarEvents,
  calendarIntegrations,
  contacts,
  dueActions,
  emails,
  gameBadges,
  gameLedger,
  gameProfiles,
  invitationAnswers,
  mailAccounts,
  notificationSettings,
  pushSubscriptions,
  sessions,
  syncStates,
  unsubscribeRequests,
  uploads,
  users,
} from "../db/schema.ts";
import type { Clock } from "../lib/clock.ts";
import { type PrivacySettingsService, presentSettings } from "./settings.ts";

/** Emails read per query: a page holds bodies, so the export never has more than this in memory. */
const EMAIL_PAGE = 200;

/**
 * The export's sections, in file order, each read from the database only when the stream gets to
 * it. Columns are listed one by one (never a whole row), so secrets (token ciphertexts, session
 * hashes, push client-state hashes, sync cursors) cannot reach the file when a column is added.
 * server/privacy/registry.ts names the section of every table that holds a person's data, and
 * its test fails when a table has no section.
 */
function sections(db: Db, userId: string, settings: PrivacySettingsService) {
  return {
    profile: async () => {
      const [u] = await db
        .select({
          id: users.id,
          email: users.email,
          displayName: users.displayName,
          plan: users.plan,
          sendDelaySeconds: users.sendDelaySeconds,
          timeZone: users.timeZone,
          trialEndsAt: users.trialEndsAt,
          createdAt: users.createdAt,
        })
        .from(users)
        .where(eq(users.id, userId));
      return u ?? null;
    },
    privacySettings: async () => presentSettings(await settings.read(userId)),
    accounts: () =>
      db
        .select({
          id: mailAccounts.id,
          provider: mailAccounts.provider,
          email: mailAccounts.email,
          displayName: mailAccounts.displayName,
          status: mailAccounts.status,
          scope: mailAccounts.scope,
          signatureHtml: mailAccounts.signatureHtml,
          signatureText: mailAccounts.signatureText,
          connectedAt: mailAccounts.connectedAt,
        })
        .from(mailAccounts)
        .where(eq(mailAccounts.userId, userId))
        .orderBy(asc(mailAccounts.connectedAt)),
    syncStates: () =>
      db
        .select({
          accountId: syncStates.accountId,
          status: syncStates.status,
          syncedCount: syncStates.syncedCount,
          backfillDone: syncStates.backfillDone,
          lastSyncedAt: syncStates.lastSyncedAt,
          pushExpiresAt: syncStates.pushExpiresAt,
        })
        .from(syncStates)
        .innerJoin(mailAccounts, eq(mailAccounts.id, syncStates.accountId))
        .where(eq(mailAccounts.userId, userId)),
    sessions: () =>
      db
        .select({
          createdAt: sessions.createdAt,
          lastUsedAt: sessions.lastUsedAt,
          expiresAt: sessions.expiresAt,
          endedAt: sessions.endedAt,
        })
        .from(sessions)
        .where(eq(sessions.userId, userId))
        .orderBy(asc(sessions.createdAt)),
    agent: async () => {
      const [a] = await db
        .select({
          id: agents.id,
          name: agents.name,
          personality: agents.personality,
          preferences: agents.preferences,
          createdAt: agents.createdAt,
          updatedAt: agents.updatedAt,
        })
        .from(agents)
        .where(eq(agents.userId, userId));
      return a ?? null;
    },
    agentMemories: () =>
      db
        .select({
          id: agentMemories.id,
          kind: agentMemories.kind,
          key: agentMemories.key,
          content: agentMemories.content,
          source: agentMemories.source,
          weight: agentMemories.weight,
          mailReceivedAt: agentMemories.mailReceivedAt,
          createdAt: agentMemories.createdAt,
          updatedAt: agentMemories.updatedAt,
        })
        .from(agentMemories)
        .where(eq(agentMemories.userId, userId))
        .orderBy(asc(agentMemories.createdAt)),
    aiConversations: () =>
      db
        .select({
          id: aiConversations.id,
          kind: aiConversations.kind,
          engine: aiConversations.engine,
          emailId: aiConversations.emailId,
          createdAt: aiConversations.createdAt,
        })
        .from(aiConversations)
        .where(eq(aiConversations.userId, userId))
        .orderBy(asc(aiConversations.createdAt)),
    aiUsage: () =>
      db
        .select({
          id: aiUsage.id,
          task: aiUsage.task,
          engine: aiUsage.engine,
          inputTokens: aiUsage.inputTokens,
          outputTokens: aiUsage.outputTokens,
          outcome: aiUsage.outcome,
          createdAt: aiUsage.createdAt,
        })
        .from(aiUsage)
        .where(eq(aiUsage.userId, userId))
        .orderBy(asc(aiUsage.createdAt)),
    agentDrafts: () =>
      db
        .select({
          id: agentDrafts.id,
          emailId: agentDrafts.emailId,
          accountEmail: agentDrafts.accountEmail,
          toAddress: agentDrafts.toAddress,
          subject: agentDrafts.subject,
          engine: agentDrafts.engine,
          status: agentDrafts.status,
          sentAt: agentDrafts.sentAt,
          createdAt: agentDrafts.createdAt,
        })
        .from(agentDrafts)
        .where(eq(agentDrafts.userId, userId))
        .orderBy(asc(agentDrafts.createdAt)),
    unsubscribeRequests: () =>
      db
        .select({
          id: unsubscribeRequests.id,
          accountId: unsubscribeRequests.accountId,
          emailId: unsubscribeRequests.emailId,
          senderAddress: unsubscribeRequests.senderAddress,
          method: unsubscribeRequests.method,
          status: unsubscribeRequests.status,
          url: unsubscribeRequests.url,
          detail: unsubscribeRequests.detail,
          createdAt: unsubscribeRequests.createdAt,
          updatedAt: unsubscribeRequests.updatedAt,
        })
        .from(unsubscribeRequests)
        .where(eq(unsubscribeRequests.userId, userId))
        .orderBy(asc(unsubscribeRequests.createdAt)),
    calendarIntegrations: () =>
      db
        .select({
          id: calendarIntegrations.id,
          accountId: calendarIntegrations.accountId,
          provider: calendarIntegrations.provider,
          email: calendarIntegrations.email,
          status: calendarIntegrations.status,
          scope: calendarIntegrations.scope,
          calendarName: calendarIntegrations.calendarName,
          calendarTimeZone: calendarIntegrations.calendarTimeZone,
          lastSyncedAt: calendarIntegrations.lastSyncedAt,
          connectedAt: calendarIntegrations.connectedAt,
        })
        .from(calendarIntegrations)
        .where(eq(calendarIntegrations.userId, userId)),
    /** Held mail (Undo send) and, with issue 37, other due actions, with their content. */
    dueActions: () =>
      db
        .select({
          id: dueActions.id,
          kind: dueActions.kind,
          runAt: dueActions.runAt,
          status: dueActions.status,
          payload: dueActions.payload,
          attempts: dueActions.attempts,
          lastError: dueActions.lastError,
          createdAt: dueActions.createdAt,
          doneAt: dueActions.doneAt,
        })
        .from(dueActions)
        .where(eq(dueActions.userId, userId))
        .orderBy(asc(dueActions.runAt)),
    invitationAnswers: () =>
      db
        .select({
          emailId: invitationAnswers.emailId,
          response: invitationAnswers.response,
          via: invitationAnswers.via,
          answeredFrom: invitationAnswers.answeredFrom,
          organizer: invitationAnswers.organizer,
          answeredAt: invitationAnswers.answeredAt,
        })
        .from(invitationAnswers)
        .where(eq(invitationAnswers.userId, userId))
        .orderBy(asc(invitationAnswers.answeredAt)),
    /** Files attached in compose and not yet sent (issue 36): what they are; their bytes stay out. */
    uploads: () =>
      db
        .select({
          id: uploads.id,
          fileName: uploads.fileName,
          contentType: uploads.contentType,
          size: uploads.size,
          createdAt: uploads.createdAt,
          expiresAt: uploads.expiresAt,
        })
        .from(uploads)
        .where(eq(uploads.userId, userId))
        .orderBy(asc(uploads.createdAt)),
    calendarEvents: () =>
      db
        .select({
          id: calendarEvents.id,
          integrationId: calendarEvents.integrationId,
          title: calendarEvents.title,
          location: calendarEvents.location,
          allDay: calendarEvents.allDay,
          startAt: calendarEvents.startAt,
          endAt: calendarEvents.endAt,
          startDate: calendarEvents.startDate,
          endDate: calendarEvents.endDate,
          timeZone: calendarEvents.timeZone,
          status: calendarEvents.status,
          organizer: calendarEvents.organizer,
          attendees: calendarEvents.attendees,
          htmlLink: calendarEvents.htmlLink,
          updatedAt: calendarEvents.updatedAt,
        })
        .from(calendarEvents)
        .where(eq(calendarEvents.userId, userId))
        .orderBy(asc(calendarEvents.startAt), asc(calendarEvents.id)),
    gameProfile: async () => {
      const [g] = await db
        .select({
          displayName: gameProfiles.displayName,
          showOnLeaderboard: gameProfiles.showOnLeaderboard,
          timeZone: gameProfiles.timeZone,
          emailsProcessed: gameProfiles.emailsProcessed,
          unsubscribes: gameProfiles.unsubscribes,
          aiUses: gameProfiles.aiUses,
          inboxZeroDays: gameProfiles.inboxZeroDays,
          inboxZeroStreak: gameProfiles.inboxZeroStreak,
          bestInboxZeroStreak: gameProfiles.bestInboxZeroStreak,
          lastInboxZeroDay: gameProfiles.lastInboxZeroDay,
          badgesEarned: gameProfiles.badgesEarned,
          isFoundingMember: gameProfiles.isFoundingMember,
          isEarlyAdopter: gameProfiles.isEarlyAdopter,
          score: gameProfiles.score,
          joinedAt: gameProfiles.joinedAt,
          updatedAt: gameProfiles.updatedAt,
        })
        .from(gameProfiles)
        .where(eq(gameProfiles.userId, userId));
      return g ?? null;
    },
    badges: () =>
      db
        .select({ badgeId: gameBadges.badgeId, earnedAt: gameBadges.earnedAt })
        .from(gameBadges)
        .where(eq(gameBadges.userId, userId))
        .orderBy(asc(gameBadges.earnedAt)),
    gameLedger: () =>
      db
        .select({ kind: gameLedger.kind, key: gameLedger.key, createdAt: gameLedger.createdAt })
        .from(gameLedger)
        .where(eq(gameLedger.userId, userId))
        .orderBy(asc(gameLedger.createdAt)),
    contacts: () =>
      db
        .select({
          address: contacts.address,
          name: contacts.name,
          sentCount: contacts.sentCount,
          receivedCount: contacts.receivedCount,
          lastUsedAt: contacts.lastUsedAt,
        })
        .from(contacts)
        .where(eq(contacts.userId, userId))
        .orderBy(asc(contacts.address)),
    notificationSettings: async () => {
      const [row] = await db
        .select({
          mode: notificationSettings.mode,
          mutedAccountIds: notificationSettings.mutedAccountIds,
          quietStart: notificationSettings.quietStart,
          quietEnd: notificationSettings.quietEnd,
          timeZone: notificationSettings.timeZone,
          enabledAt: notificationSettings.enabledAt,
          updatedAt: notificationSettings.updatedAt,
        })
        .from(notificationSettings)
        .where(eq(notificationSettings.userId, userId));
      return row ?? null;
    },
    // The endpoint and when it was added; its encryption keys stay out of the file.
    pushSubscriptions: () =>
      db
        .select({
          endpoint: pushSubscriptions.endpoint,
          createdAt: pushSubscriptions.createdAt,
          lastPushAt: pushSubscriptions.lastPushAt,
        })
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.userId, userId))
        .orderBy(asc(pushSubscriptions.createdAt)),
  } satisfies Record<string, () => Promise<unknown>>;
}

const emailColumns = {
  id: emails.id,
  accountId: emails.accountId,
  providerId: emails.providerId,
  threadId: emails.threadId,
  internetMessageId: emails.internetMessageId,
  fromName: emails.fromName,
  fromAddress: emails.fromAddress,
  to: emails.toRecipients,
  cc: emails.ccRecipients,
  replyTo: emails.replyToRecipients,
  subject: emails.subject,
  snippet: emails.snippet,
  bodyHtml: emails.bodyHtml,
  bodyText: emails.bodyText,
  date: emails.receivedAt,
  isRead: emails.isRead,
  readAt: emails.readAt,
  isStarred: emails.isStarred,
  isFlagged: emails.isFlagged,
  inInbox: emails.inInbox,
  isTrashed: emails.isTrashed,
  isSpam: emails.isSpam,
  isDraft: emails.isDraft,
  isSent: emails.isSent,
  labels: emails.labels,
  providerCategory: emails.providerCategory,
  bucket: emails.bucket,
  listUnsubscribe: emails.listUnsubscribe,
  attachments: emails.attachments,
  aiAnalysis: emails.aiAnalysis,
  snoozedUntil: emails.snoozedUntil,
  resurfacedAt: emails.resurfacedAt,
  resurfaceReason: emails.resurfaceReason,
};

/** The person's emails, newest first, a page at a time by (received_at, id) on the list's index. */
async function* emailPages(db: Db, userId: string) {
  let after: { receivedAt: Date; id: string } | undefined;
  for (;;) {
    const page = await db
      .select(emailColumns)
      .from(emails)
      .where(
        and(
          eq(emails.userId, userId),
          // A row comparison is one range of the (user, received_at desc, id desc) index; the
          // equivalent OR of two conditions made each page read the index from the newest mail
          // on (129 ms a page at 100,000 emails, against 32 ms at 20,000).
          after ? sql`(${emails.receivedAt}, ${emails.id}) < (${after.receivedAt}, ${after.id})` : undefined,
        ),
      )
      .orderBy(desc(emails.receivedAt), desc(emails.id))
      .limit(EMAIL_PAGE);
    if (page.length > 0) yield page;
    const last = page.at(-1);
    if (!last || page.length < EMAIL_PAGE) return;
    after = { receivedAt: last.date, id: last.id };
  }
}

/** Section names of the export file (the registry test checks every user-data table has one). */
export type ExportSection = keyof ReturnType<typeof sections> | "emails" | "exportedAt" | "format";

/**
 * The whole export as a stream of JSON text: small sections first, then the emails page by page,
 * so a 100k-mail export holds one page in memory, not the mailbox. The text is one JSON object.
 */
export async function* exportChunks(
  db: Db,
  clock: Clock,
  settings: PrivacySettingsService,
  userId: string,
): AsyncGenerator<string> {
  yield `{"format":"mailwise-export/1","exportedAt":${JSON.stringify(clock.now().toISOString())}`;
  for (const [name, read] of Object.entries(sections(db, userId, settings))) {
    yield `,${JSON.stringify(name)}:${JSON.stringify(await read())}`;
  }
  yield `,"emails":[`;
  let first = true;
  for await (const page of emailPages(db, userId)) {
    const text = page.map((row) => JSON.stringify(row)).join(",");
    yield first ? text : `,${text}`;
    first = false;
  }
  yield "]}";
}
