import { and, eq, gte, sql } from "drizzle-orm";
import { BUCKETS, isBucket } from "../../contract/buckets.ts";
import type { EmailStats } from "../../contract/mail.ts";
import type { Db } from "../db/client.ts";
import { emails, mailAccounts, syncStates } from "../db/schema.ts";
import type { EventBus } from "../events.ts";
import type { Clock } from "../lib/clock.ts";
import type { ProviderClientFactory } from "../sync/types.ts";
import type { AccountSummary } from "./accounts.ts";
import { accountSummaryColumns, syncAccountOf } from "./accounts.ts";

/** How long a provider's inbox total is trusted before a background refresh. */
const REMOTE_TTL_MS = 5 * 60_000;
/**
 * Local counts and the account list are cached briefly per user. The client treats data as fresh
 * for 30 s anyway (spec section 9), our own mutations drop the cache at once, and a 100k mailbox
 * takes ~15 ms to count on PGlite, so repeated dashboard refreshes stay well under 10 ms and most
 * need no database at all (one PGlite connection is shared by every request of the process).
 */
const LOCAL_TTL_MS = 3_000;

interface LocalCounts {
  /** The user's accounts with sync's inbox estimate, read with the counts and cached with them. */
  accounts: Array<AccountSummary & { totalEstimate: number | null }>;
  perAccount: Map<string, { total: number; unread: number }>;
  perBucket: EmailStats["buckets"];
  readToday: number;
}

/**
 * GET /api/emails/stats. The provider's own inbox total comes from a per-account cache filled
 * in the background (getProfile), falling back to sync's estimate, then to the local count, so
 * the endpoint never waits for Google or Microsoft.
 */
export function createStatsService(deps: {
  db: Db;
  clock: Clock;
  events: EventBus;
  providerClient: ProviderClientFactory;
  log: { warn(obj: object, msg: string): void };
}) {
  const { db, clock } = deps;
  const remote = new Map<string, { total: number; at: number }>();
  const refreshing = new Set<string>();
  const local = new Map<string, { at: number; counts: LocalCounts }>();
  // Keep in-flight background refreshes reachable so tests and shutdown can wait for them.
  const pending = new Set<Promise<void>>();

  const invalidate = ({ userId }: { userId: string }) => {
    local.delete(userId);
  };
  for (const name of [
    "email.archived",
    "email.unarchived",
    "email.read",
    "email.unread",
    "email.trashed",
    "accounts.changed",
    // Analysis can move mail between buckets: the cards' counts come from here (decision 0036).
    "emails.analysed",
  ] as const) {
    deps.events.on(name, invalidate);
  }
  // Mail a sync stored changes the counts too: without this, the stats asked for right after a
  // first sync ends (the dashboard refetches then and keeps the answer 30 s) could be a page short.
  deps.events.on("emails.synced", ({ accountId }) => {
    for (const [userId, entry] of local) {
      if (entry.counts.accounts.some((a) => a.id === accountId)) local.delete(userId);
    }
  });

  function startOfUtcDay(): Date {
    const now = clock.now();
    return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  }

  async function countLocal(userId: string): Promise<LocalCounts> {
    const cached = local.get(userId);
    if (cached && clock.nowMs() - cached.at < LOCAL_TTL_MS) return cached.counts;
    const [accounts, rows, [today]] = await Promise.all([
      // The accounts with sync's inbox estimate: one statement (each costs a fixed overhead on PGlite).
      db
        .select({ ...accountSummaryColumns, totalEstimate: syncStates.totalEstimate })
        .from(mailAccounts)
        .leftJoin(syncStates, eq(syncStates.accountId, mailAccounts.id))
        .where(eq(mailAccounts.userId, userId)),
      // Matches the partial index emails_user_inbox_counts_idx (which carries the bucket): an
      // index-only scan. Per account and bucket, so the bucket cards need no list reads to count.
      db
        .select({
          accountId: emails.accountId,
          bucket: emails.bucket,
          total: sql<number>`count(*)::int`,
          unread: sql<number>`(count(*) filter (where not ${emails.isRead}))::int`,
        })
        .from(emails)
        .where(
          and(
            eq(emails.userId, userId),
            sql`${emails.inInbox} and not ${emails.isTrashed} and not ${emails.isSpam}`,
          ),
        )
        .groupBy(emails.accountId, emails.bucket),
      db
        .select({ n: sql<number>`count(*)::int` })
        .from(emails)
        .where(and(eq(emails.userId, userId), gte(emails.readAt, startOfUtcDay()))),
    ]);
    const perAccount = new Map<string, { total: number; unread: number }>();
    const perBucket = Object.fromEntries(
      BUCKETS.map((b) => [b, { total: 0, unread: 0 }]),
    ) as EmailStats["buckets"];
    for (const r of rows) {
      const account = perAccount.get(r.accountId) ?? { total: 0, unread: 0 };
      account.total += r.total;
      account.unread += r.unread;
      perAccount.set(r.accountId, account);
      if (isBucket(r.bucket)) {
        perBucket[r.bucket].total += r.total;
        perBucket[r.bucket].unread += r.unread;
      }
    }
    const counts: LocalCounts = { accounts, perAccount, perBucket, readToday: today?.n ?? 0 };
    local.set(userId, { at: clock.nowMs(), counts });
    return counts;
  }

  function refreshRemote(account: AccountSummary): void {
    if (account.status !== "active" || refreshing.has(account.id)) return;
    refreshing.add(account.id);
    const run = (async () => {
      try {
        const profile = await deps.providerClient(syncAccountOf(account)).getProfile();
        remote.set(account.id, { total: profile.inboxTotal, at: clock.nowMs() });
      } catch (err) {
        // Remember the failure too, so a dead provider is not asked again on every dashboard load.
        const previous = remote.get(account.id);
        if (previous) remote.set(account.id, { ...previous, at: clock.nowMs() });
        deps.log.warn({ accountId: account.id, err: (err as Error).message }, "inbox total refresh failed");
      } finally {
        refreshing.delete(account.id);
      }
    })();
    pending.add(run);
    void run.finally(() => pending.delete(run));
  }

  return {
    async stats(userId: string): Promise<EmailStats> {
      const counts = await countLocal(userId);
      const result: EmailStats = {
        unreadCount: 0,
        totalEmails: 0,
        readToday: counts.readToday,
        totalEmailsRemote: 0,
        providerCounts: { gmail: 0, outlook: 0 },
        buckets: counts.perBucket,
      };
      for (const account of counts.accounts) {
        const c = counts.perAccount.get(account.id) ?? { total: 0, unread: 0 };
        result.unreadCount += c.unread;
        result.totalEmails += c.total;
        if (account.provider === "gmail" || account.provider === "outlook") {
          result.providerCounts[account.provider] += c.total;
        }
        const cached = remote.get(account.id);
        if (!cached || clock.nowMs() - cached.at > REMOTE_TTL_MS) refreshRemote(account);
        result.totalEmailsRemote += cached?.total ?? account.totalEstimate ?? c.total;
      }
      return result;
    },

    /** Waits for background provider refreshes (tests, shutdown). */
    async settled(): Promise<void> {
      await Promise.all([...pending]);
    },
  };
}

export type StatsService = ReturnType<typeof createStatsService>;
