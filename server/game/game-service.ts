import { and, desc, eq, sql } from "drizzle-orm";
import type {
  Badge,
  BadgeProgress,
  Leaderboard,
  LeaderboardEntry,
  LeaderboardSettings,
} from "../../contract/game.ts";
import type { Db } from "../db/client.ts";
import { emails, gameBadges, gameLedger, gameProfiles, gameScoreCounts, users } from "../db/schema.ts";
import { DomainError } from "../http/errors.ts";
import type { Clock } from "../lib/clock.ts";
import { BADGES, type BadgeDefinition, badgesMet, type GameCounters } from "./catalogue.ts";
import { dayAfter, localDay } from "./days.ts";
import { pseudonym } from "./pseudonym.ts";

/** How many people GET /api/leaderboard lists (the card shows the first 3 as the podium). */
export const LEADERBOARD_SIZE = 50;
const RANKING_CACHE_MS = 1_000;

interface Ranking extends Pick<Leaderboard, "topUsers" | "totalUsers"> {
  /** Every distinct score, highest first. */
  scores: number[];
  /** above[i]: how many people score higher than scores[i]; the last entry is everyone. */
  above: number[];
}

export interface GameConfig {
  foundingMemberUntil: Date;
  earlyAdopterUntil: Date;
}

type Profile = typeof gameProfiles.$inferSelect;

/** What one recorded action counts: each (kind, key) once per person, ever. */
export interface Countable {
  kind: "processed" | "unsubscribe" | "ai";
  keys: string[];
}

const COUNTER: Record<Countable["kind"], "emailsProcessed" | "unsubscribes" | "aiUses"> = {
  processed: "emailsProcessed",
  unsubscribe: "unsubscribes",
  ai: "aiUses",
};

function flags(joinedAt: Date, config: GameConfig) {
  const isFoundingMember = joinedAt < config.foundingMemberUntil;
  return { isFoundingMember, isEarlyAdopter: !isFoundingMember && joinedAt < config.earlyAdopterUntil };
}

/**
 * Achievements and the leaderboard (decision 0024). The recorder methods run inside one
 * transaction per action with the person's profile row locked, so concurrent actions of one
 * person add up exactly; reads never recount the mail.
 */
export function createGameService(deps: { db: Db; clock: Clock; config: GameConfig }) {
  const { db, clock, config } = deps;
  type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

  /** Creates the profile on first use (joined = when the user signed up). */
  async function ensureProfile(tx: Db | Tx, userId: string): Promise<void> {
    const [user] = await tx.select({ createdAt: users.createdAt }).from(users).where(eq(users.id, userId));
    if (!user) throw new DomainError("not_found", "No such user.");
    await tx
      .insert(gameProfiles)
      .values({ userId, joinedAt: user.createdAt, ...flags(user.createdAt, config) })
      .onConflictDoNothing();
  }

  /** The profile, locked; created on the person's first action only (a write-back is a hot path). */
  async function lockedProfile(tx: Tx, userId: string): Promise<Profile> {
    const locked = () => tx.select().from(gameProfiles).where(eq(gameProfiles.userId, userId)).for("update");
    const [existing] = await locked();
    if (existing) return existing;
    await ensureProfile(tx, userId);
    const [row] = await locked();
    if (!row) throw new Error("game profile vanished under its lock");
    return row;
  }

  /** Stores the badges the counters now reach (once: earnedAt is never rewritten). */
  async function award(tx: Tx, profile: Profile): Promise<void> {
    const met = badgesMet(profile);
    // Every measure only grows, so the badges earned are among those met: as many earned as met
    // means nothing new, and the insert (one statement per recorded action) is skipped.
    if (met.length <= profile.badgesEarned) return;
    const inserted = await tx
      .insert(gameBadges)
      .values(met.map((b) => ({ userId: profile.userId, badgeId: b.id, earnedAt: clock.now() })))
      .onConflictDoNothing()
      .returning({ badgeId: gameBadges.badgeId });
    if (inserted.length > 0) {
      await tx
        .update(gameProfiles)
        .set({ badgesEarned: sql`${gameProfiles.badgesEarned} + ${inserted.length}` })
        .where(eq(gameProfiles.userId, profile.userId));
    }
  }

  // One chain per person in this process: actions of one person are recorded in order, and
  // readers wait for what is in flight so an answer includes the action that preceded it.
  const chains = new Map<string, Promise<void>>();
  function serialised(userId: string, work: () => Promise<void>): Promise<void> {
    const previous = chains.get(userId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(work);
    const settled = next.catch(() => undefined);
    chains.set(userId, settled);
    void settled.then(() => {
      if (chains.get(userId) === settled) chains.delete(userId);
    });
    return next;
  }
  const settledFor = (userId: string) => chains.get(userId) ?? Promise.resolve();

  /**
   * Archives, deletes, stars, flags and reads waiting in a person's chain share one record: a
   * burst of actions (a bulk archive's emails arrive one write-back at a time) costs one
   * transaction rather than one each. A batch takes actions until its turn comes; each email
   * still counts once (the ledger), and the inbox-zero check runs after all of them.
   */
  const waiting = new Map<string, { keys: Set<string>; run: Promise<void> }>();
  function recordAction(userId: string, emailIds: readonly string[]): Promise<void> {
    const batch = waiting.get(userId);
    if (batch) {
      for (const id of emailIds) batch.keys.add(id);
      return batch.run;
    }
    const keys = new Set(emailIds);
    const run = serialised(userId, () => {
      waiting.delete(userId);
      const countable = keys.size > 0 ? { kind: "processed" as const, keys: [...keys] } : null;
      return record(userId, countable, { inboxMayBeEmpty: true });
    });
    waiting.set(userId, { keys, run });
    return run;
  }

  async function inboxHasUnread(tx: Tx, userId: string): Promise<boolean> {
    const rows = await tx
      .select({ one: sql`1` })
      .from(emails)
      .where(
        and(
          eq(emails.userId, userId),
          eq(emails.isRead, false),
          sql`${emails.inInbox} and not ${emails.isTrashed} and not ${emails.isSpam}`,
        ),
      )
      .limit(1);
    return rows.length > 0;
  }

  /** An inbox-zero day is a local day on which an action of the person left no unread inbox mail. */
  async function noteInboxZero(tx: Tx, profile: Profile): Promise<Profile> {
    if (await inboxHasUnread(tx, profile.userId)) return profile;
    const today = localDay(clock.now(), profile.timeZone);
    const last = profile.lastInboxZeroDay;
    if (last !== null && today <= last) return profile; // counted already (or the zone moved back)
    const streak = last !== null && dayAfter(last) === today ? profile.inboxZeroStreak + 1 : 1;
    const [updated] = await tx
      .update(gameProfiles)
      .set({
        lastInboxZeroDay: today,
        inboxZeroDays: profile.inboxZeroDays + 1,
        inboxZeroStreak: streak,
        bestInboxZeroStreak: Math.max(profile.bestInboxZeroStreak, streak),
        updatedAt: clock.now(),
      })
      .where(eq(gameProfiles.userId, profile.userId))
      .returning();
    return updated ?? profile;
  }

  async function record(
    userId: string,
    countable: Countable | null,
    options: { inboxMayBeEmpty: boolean },
  ): Promise<void> {
    await db.transaction(async (tx) => {
      let profile = await lockedProfile(tx, userId);
      const keys = countable ? [...new Set(countable.keys)] : [];
      if (countable && keys.length > 0) {
        const fresh = await tx
          .insert(gameLedger)
          .values(keys.map((key) => ({ userId, kind: countable.kind, key })))
          .onConflictDoNothing()
          .returning({ key: gameLedger.key });
        if (fresh.length > 0) {
          const column = COUNTER[countable.kind];
          const [updated] = await tx
            .update(gameProfiles)
            .set({ [column]: sql`${gameProfiles[column]} + ${fresh.length}`, updatedAt: clock.now() })
            .where(eq(gameProfiles.userId, userId))
            .returning();
          if (updated) profile = updated;
        }
      }
      if (options.inboxMayBeEmpty) profile = await noteInboxZero(tx, profile);
      await award(tx, profile);
    });
    // Scores may have moved: the next answer reads the ranking again.
    cachedRanking = null;
  }

  function currentStreak(p: Pick<Profile, "inboxZeroStreak" | "lastInboxZeroDay" | "timeZone">): number {
    if (p.lastInboxZeroDay === null) return 0;
    const today = localDay(clock.now(), p.timeZone);
    // Alive while the last inbox zero was today or yesterday (today may still come).
    return p.lastInboxZeroDay === today || dayAfter(p.lastInboxZeroDay) === today ? p.inboxZeroStreak : 0;
  }

  const entryColumns = {
    userId: gameProfiles.userId,
    displayName: gameProfiles.displayName,
    score: gameProfiles.score,
    inboxZeroStreak: gameProfiles.inboxZeroStreak,
    lastInboxZeroDay: gameProfiles.lastInboxZeroDay,
    timeZone: gameProfiles.timeZone,
    bestInboxZeroStreak: gameProfiles.bestInboxZeroStreak,
    badgesEarned: gameProfiles.badgesEarned,
    emailsProcessed: gameProfiles.emailsProcessed,
    joinedAt: gameProfiles.joinedAt,
    isFoundingMember: gameProfiles.isFoundingMember,
    isEarlyAdopter: gameProfiles.isEarlyAdopter,
  };
  type EntryRow = Pick<Profile, keyof typeof entryColumns>;

  /** The fields that leave the server: no email address, ever (the name is checked on the way in). */
  function present(row: EntryRow, rank: number): LeaderboardEntry {
    return {
      userId: row.userId,
      rank,
      displayName: row.displayName ?? pseudonym(row.userId),
      score: row.score,
      inboxZeroStreak: currentStreak(row),
      bestInboxZeroStreak: row.bestInboxZeroStreak,
      totalBadgesEarned: row.badgesEarned,
      totalEmailsProcessed: row.emailsProcessed,
      joinedDate: row.joinedAt.toISOString(),
      isFoundingMember: row.isFoundingMember,
      isEarlyAdopter: row.isEarlyAdopter && !row.isFoundingMember,
    };
  }

  async function profileOf(userId: string): Promise<Profile> {
    const [existing] = await db.select().from(gameProfiles).where(eq(gameProfiles.userId, userId));
    if (existing) return existing;
    await ensureProfile(db, userId);
    const [row] = await db.select().from(gameProfiles).where(eq(gameProfiles.userId, userId));
    if (!row) throw new DomainError("not_found", "No such user.");
    return row;
  }

  /**
   * The top of the ranking, the total and the score histogram are the same for everyone: read once
   * a second at most per process (the client refetches every 60 s), and dropped at once when this
   * process records a score or changes a name or a visibility, so the person sees their own change.
   * With the histogram in memory a request reads only the person's own row: a rank summed in SQL
   * over the scores above a middle-ranked person cost 1.3 ms at 100,000 people, which queued up to
   * 46 ms p95 with 10 clients on PGlite's single connection.
   */
  let cachedRanking: { at: number; value: Promise<Ranking> } | null = null;
  function ranking(): Promise<Ranking> {
    const now = Date.now();
    if (cachedRanking && now - cachedRanking.at < RANKING_CACHE_MS) return cachedRanking.value;
    const value = (async () => {
      const [top, histogram] = await Promise.all([
        db
          .select(entryColumns)
          .from(gameProfiles)
          .where(eq(gameProfiles.showOnLeaderboard, true))
          // Spelled as the index is (score desc nulls last), or PostgreSQL sorts the whole table.
          .orderBy(sql`${gameProfiles.score} desc nulls last`, gameProfiles.userId)
          .limit(LEADERBOARD_SIZE),
        db
          .select({ score: gameScoreCounts.score, users: gameScoreCounts.users })
          .from(gameScoreCounts)
          .orderBy(desc(gameScoreCounts.score)),
      ]);
      // Equal scores share a rank (1, 2, 2, 4): everyone above a listed person is listed before them.
      const topUsers: LeaderboardEntry[] = [];
      top.forEach((row, i) => {
        const previous = topUsers[i - 1];
        const rank = previous && previous.score === row.score ? previous.rank : i + 1;
        topUsers.push(present(row, rank));
      });
      const scores = histogram.map((h) => h.score);
      // above[i]: the people whose score is higher than scores[i].
      const above = [0];
      for (const h of histogram) above.push((above.at(-1) ?? 0) + h.users);
      return { topUsers, totalUsers: above.at(-1) ?? 0, scores, above };
    })();
    cachedRanking = { at: now, value };
    value.catch(() => {
      if (cachedRanking?.value === value) cachedRanking = null;
    });
    return value;
  }

  /** The people with a higher score than `score`: a binary search of the histogram (scores descending). */
  function peopleAbove(r: Ranking, score: number): number {
    let lo = 0;
    let hi = r.scores.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((r.scores[mid] ?? 0) > score) lo = mid + 1;
      else hi = mid;
    }
    return r.above[lo] ?? 0;
  }

  /** The person's entry, read fresh, ranked against the histogram: one plus the people above. */
  async function ownPlace(userId: string, r: Ranking): Promise<LeaderboardEntry> {
    const read = () => db.select(entryColumns).from(gameProfiles).where(eq(gameProfiles.userId, userId));
    let [row] = await read();
    if (!row) {
      await ensureProfile(db, userId);
      [row] = await read();
    }
    if (!row) throw new DomainError("not_found", "No such user.");
    return present(row, peopleAbove(r, row.score) + 1);
  }

  return {
    /** Archive, delete, star or flag confirmed by the provider: each email counts once. */
    processed(userId: string, emailIds: string[]): Promise<void> {
      return recordAction(userId, emailIds);
    },
    /** Marked read at the provider: no points, but it may be the action that empties the inbox. */
    read(userId: string): Promise<void> {
      return recordAction(userId, []);
    },
    /** An unsubscribe the sender confirmed: each sender counts once. */
    unsubscribed(userId: string, senderAddress: string): Promise<void> {
      return serialised(userId, () =>
        record(
          userId,
          { kind: "unsubscribe", keys: [senderAddress.trim().toLowerCase()] },
          { inboxMayBeEmpty: false },
        ),
      );
    },
    /**
     * An AI answer the person asked for: once per email and UTC day, and AI help with no email
     * (compose, Improve) once per UTC day, so repeating calls cannot farm badges (issue 34.2).
     * The ledger's key holds the day, so concurrent calls in other processes count once too. The
     * day is UTC, not the person's zone: moving the zone must not open a second day.
     */
    aiUsed(userId: string, emailId: string | null): Promise<void> {
      const day = clock.now().toISOString().slice(0, 10);
      const key = emailId ? `email:${emailId}:${day}` : `day:${day}`;
      return serialised(userId, () =>
        record(userId, { kind: "ai", keys: [key] }, { inboxMayBeEmpty: false }),
      );
    },
    /** A new person (or account): the profile exists from then on, and the early badges land. */
    joined(userId: string): Promise<void> {
      return serialised(userId, () => record(userId, null, { inboxMayBeEmpty: false }));
    },

    async progress(userId: string): Promise<BadgeProgress> {
      await settledFor(userId);
      await serialised(userId, () => record(userId, null, { inboxMayBeEmpty: false }));
      const profile = await profileOf(userId);
      const earned = new Map(
        (
          await db
            .select({ badgeId: gameBadges.badgeId, earnedAt: gameBadges.earnedAt })
            .from(gameBadges)
            .where(eq(gameBadges.userId, userId))
        ).map((r) => [r.badgeId, r.earnedAt]),
      );
      const badge = (b: BadgeDefinition, counters: GameCounters): Badge => {
        const earnedAt = earned.get(b.id) ?? null;
        const current = earnedAt ? Math.max(b.target, b.measure(counters)) : b.measure(counters);
        return {
          id: b.id,
          name: b.name,
          description: b.description,
          tier: b.tier,
          icon: b.icon,
          category: b.category,
          earnedAt: earnedAt ? earnedAt.toISOString() : null,
          progress: {
            current,
            target: b.target,
            percentage: Math.min(100, Math.floor((current / b.target) * 100)),
          },
        };
      };
      const all = BADGES.map((b) => badge(b, profile));
      const earnedBadges = all
        .filter((b) => b.earnedAt !== null)
        .sort((a, b) => (b.earnedAt ?? "").localeCompare(a.earnedAt ?? ""));
      const availableBadges = all.filter((b) => b.earnedAt === null);
      const tier = (t: Badge["tier"]) => earnedBadges.filter((b) => b.tier === t).length;
      return {
        stats: {
          earnedBadges: earnedBadges.length,
          totalBadges: BADGES.length,
          bronzeBadges: tier("bronze"),
          silverBadges: tier("silver"),
          goldBadges: tier("gold"),
          platinumBadges: tier("platinum"),
        },
        earnedBadges,
        availableBadges,
      };
    },

    /**
     * The top of the ranking read in index order, the person's own rank from the score histogram
     * (one plus the people with a higher score), the total from the same histogram: no request
     * counts the people (decision 0024).
     */
    async leaderboard(userId: string): Promise<Leaderboard> {
      await settledFor(userId);
      const top = await ranking();
      const mine = await ownPlace(userId, top);
      return { topUsers: top.topUsers, totalUsers: top.totalUsers, currentUser: mine };
    },

    async setDisplayName(userId: string, displayName: string): Promise<{ displayName: string }> {
      await ensureProfile(db, userId);
      await db
        .update(gameProfiles)
        .set({ displayName, updatedAt: clock.now() })
        .where(eq(gameProfiles.userId, userId));
      cachedRanking = null;
      return { displayName };
    },

    async settings(userId: string): Promise<LeaderboardSettings> {
      const p = await profileOf(userId);
      return {
        displayName: p.displayName ?? pseudonym(p.userId),
        showOnLeaderboard: p.showOnLeaderboard,
        timeZone: p.timeZone,
      };
    },

    async updateSettings(
      userId: string,
      change: { showOnLeaderboard?: boolean | undefined; timeZone?: string | undefined },
    ): Promise<LeaderboardSettings> {
      await ensureProfile(db, userId);
      await db
        .update(gameProfiles)
        .set({
          ...(change.showOnLeaderboard === undefined ? {} : { showOnLeaderboard: change.showOnLeaderboard }),
          ...(change.timeZone === undefined ? {} : { timeZone: change.timeZone }),
          updatedAt: clock.now(),
        })
        .where(eq(gameProfiles.userId, userId));
      cachedRanking = null;
      return this.settings(userId);
    },

    /**
     * Applies the configured cut-offs to everyone (run at start: a changed cut-off moves the
     * flags, and the generated score follows). Only rows whose flags differ are written.
     */
    async applyCutOffs(): Promise<number> {
      const founding = sql`${gameProfiles.joinedAt} < ${config.foundingMemberUntil.toISOString()}::timestamptz`;
      const early = sql`(not ${founding}) and ${gameProfiles.joinedAt} < ${config.earlyAdopterUntil.toISOString()}::timestamptz`;
      const changed = await db
        .update(gameProfiles)
        .set({ isFoundingMember: founding, isEarlyAdopter: early })
        .where(
          sql`${gameProfiles.isFoundingMember} is distinct from (${founding}) or ${gameProfiles.isEarlyAdopter} is distinct from (${early})`,
        )
        .returning({ userId: gameProfiles.userId });
      return changed.length;
    },

    /** Resolves when every action recorded so far in this process is stored. */
    async idle(): Promise<void> {
      await Promise.all([...chains.values()]);
    },
  };
}

export type GameService = ReturnType<typeof createGameService>;
