import { and, desc, eq, gte, isNotNull, isNull } from "drizzle-orm";
import type { PushPayload } from "../../contract/notifications.ts";
import type { Db } from "../db/client.ts";
import { emails, notifiedEmails } from "../db/schema.ts";
import type { EventBus } from "../events.ts";
import type { Clock } from "../lib/clock.ts";
import { decideNotification } from "./decide.ts";
import type { PushSender } from "./push-sender.ts";
import type { NotificationSettingsStore } from "./settings-store.ts";
import type { SubscriptionStore } from "./subscription-store.ts";

/** New mail decided per round: a person's flood of mail costs a bounded amount of work. */
const MAX_PER_ROUND = 50;
/** Mail older than this is never "new", whatever the sync found (a long outage, a backfill). */
const NEW_FOR_MS = 24 * 3600 * 1000;
/** Clock skew between the provider's received time and ours. */
const SKEW_MS = 5 * 60 * 1000;

type Log = { warn(obj: object, msg: string): void };

/**
 * Decides, once per new mail, whether to tell the person, after its analysis was stored
 * (emails.analysed): the analysis says whether it is important, bulk or spam-like. Each mail is
 * claimed by inserting its row in notified_emails first, so two processes (or two rounds) never
 * notify it twice; a process that dies after the claim loses that one notification, never repeats it.
 */
export function createNotifier(deps: {
  db: Db;
  clock: Clock;
  events: EventBus;
  settings: NotificationSettingsStore;
  subscriptions: SubscriptionStore;
  sender: PushSender;
  /** Whether an address is one of the person's VIP contacts. */
  vipOf: (userId: string) => Promise<(address: string) => boolean>;
  log: Log;
}) {
  const { db, clock } = deps;
  // One round per person at a time in this process; a request during a round runs once after it.
  const running = new Map<string, Promise<void>>();
  const again = new Set<string>();

  async function round(userId: string): Promise<void> {
    const prefs = await deps.settings.read(userId);
    if (prefs.mode === "off" || !prefs.enabledAt) return;
    const now = clock.now();
    const since = new Date(Math.max(prefs.enabledAt.getTime(), now.getTime() - NEW_FOR_MS) - SKEW_MS);
    const rows = await db
      .select({
        id: emails.id,
        accountId: emails.accountId,
        fromName: emails.fromName,
        fromAddress: emails.fromAddress,
        subject: emails.subject,
        snippet: emails.snippet,
        bucket: emails.bucket,
        listUnsubscribe: emails.listUnsubscribe,
        aiAnalysis: emails.aiAnalysis,
        isRead: emails.isRead,
        inInbox: emails.inInbox,
        isSpam: emails.isSpam,
        isTrashed: emails.isTrashed,
        isSent: emails.isSent,
        isDraft: emails.isDraft,
        providerCategory: emails.providerCategory,
      })
      .from(emails)
      .leftJoin(notifiedEmails, eq(notifiedEmails.emailId, emails.id))
      .where(
        and(
          eq(emails.userId, userId),
          isNotNull(emails.aiAnalysis),
          gte(emails.receivedAt, since),
          isNull(notifiedEmails.emailId),
        ),
      )
      .orderBy(desc(emails.receivedAt))
      .limit(MAX_PER_ROUND);
    if (rows.length === 0) return;
    const isVip = await deps.vipOf(userId);
    for (const row of rows) {
      const decision = decideNotification(prefs, { ...row, isVip: isVip(row.fromAddress) }, now);
      const outcome = decision.notify ? "notified" : decision.reason;
      const claimed = await db
        .insert(notifiedEmails)
        .values({ emailId: row.id, userId, outcome, decidedAt: now })
        .onConflictDoNothing()
        .returning({ emailId: notifiedEmails.emailId });
      if (claimed.length === 0 || !decision.notify) continue;
      await deliver(userId, {
        type: "mail",
        emailId: row.id,
        from: (row.fromName || row.fromAddress).slice(0, 200),
        subject: row.subject.slice(0, 300),
      });
    }
  }

  async function deliver(userId: string, payload: PushPayload): Promise<void> {
    for (const sub of await deps.subscriptions.list(userId)) {
      const { outcome, status } = await deps.sender.send(sub, payload);
      if (outcome === "sent") await deps.subscriptions.pushed(sub.id);
      else if (outcome === "gone") await deps.subscriptions.drop(sub.id);
      else deps.log.warn({ outcome, status }, "web push not delivered");
    }
  }

  function request(userId: string): Promise<void> {
    const current = running.get(userId);
    if (current) {
      again.add(userId);
      return current;
    }
    const run = (async () => {
      try {
        do {
          again.delete(userId);
          await round(userId);
        } while (again.has(userId));
      } finally {
        running.delete(userId);
      }
    })();
    running.set(userId, run);
    return run;
  }

  const stop = deps.events.on("emails.analysed", ({ userId }) => request(userId));
  return {
    /** Runs a round for the person now (tests; the event does it in production). */
    request,
    /** Resolves when no round is running in this process. */
    async idle(): Promise<void> {
      while (running.size > 0) await Promise.allSettled([...running.values()]);
    },
    stop,
  };
}

export type Notifier = ReturnType<typeof createNotifier>;
