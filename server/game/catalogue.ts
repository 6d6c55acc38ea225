import type { BadgeCategory, BadgeIcon, BadgeTier } from "../../contract/game.ts";

/** The counters of a game profile a badge can be measured against. */
export interface GameCounters {
  emailsProcessed: number;
  inboxZeroDays: number;
  bestInboxZeroStreak: number;
  unsubscribes: number;
  aiUses: number;
  isFoundingMember: boolean;
  isEarlyAdopter: boolean;
}

export interface BadgeDefinition {
  id: string;
  name: string;
  description: string;
  tier: BadgeTier;
  /** A picture name the client draws (never an emoji: see BADGE_ICONS). */
  icon: BadgeIcon;
  category: BadgeCategory;
  target: number;
  /** Where the person stands towards the target. */
  measure(c: GameCounters): number;
}

const processed = (c: GameCounters) => c.emailsProcessed;
const zeroDays = (c: GameCounters) => c.inboxZeroDays;
const streak = (c: GameCounters) => c.bestInboxZeroStreak;
const unsubscribes = (c: GameCounters) => c.unsubscribes;
const aiUses = (c: GameCounters) => c.aiUses;

/**
 * Every badge, in the order the card lists them. Ids are stored with earned badges: never rename
 * or reuse one. Processed mail counts each email once (archived, deleted, starred or flagged, as
 * confirmed by its provider); inbox-zero days and streaks are the person's local days.
 */
export const BADGES: readonly BadgeDefinition[] = [
  {
    id: "processed-10",
    name: "Getting Started",
    description: "Process 10 emails: archive, delete, star or flag them.",
    tier: "bronze",
    icon: "envelope",
    category: "processing",
    target: 10,
    measure: processed,
  },
  {
    id: "processed-100",
    name: "Inbox Tamer",
    description: "Process 100 emails.",
    tier: "silver",
    icon: "inbox",
    category: "processing",
    target: 100,
    measure: processed,
  },
  {
    id: "processed-1000",
    name: "Mail Master",
    description: "Process 1,000 emails.",
    tier: "gold",
    icon: "folders",
    category: "processing",
    target: 1000,
    measure: processed,
  },
  {
    id: "processed-10000",
    name: "Legendary Processor",
    description: "Process 10,000 emails.",
    tier: "platinum",
    icon: "pillars",
    category: "processing",
    target: 10_000,
    measure: processed,
  },
  {
    id: "inbox-zero-1",
    name: "Inbox Zero Master",
    description: "Reach inbox zero: no unread mail left in any connected inbox.",
    tier: "bronze",
    icon: "target",
    category: "inbox_zero",
    target: 1,
    measure: zeroDays,
  },
  {
    id: "inbox-zero-7",
    name: "Zero Hero",
    description: "Reach inbox zero on 7 different days.",
    tier: "silver",
    icon: "shield",
    category: "inbox_zero",
    target: 7,
    measure: zeroDays,
  },
  {
    id: "inbox-zero-30",
    name: "Zen Inbox",
    description: "Reach inbox zero on 30 different days.",
    tier: "gold",
    icon: "sunrise",
    category: "inbox_zero",
    target: 30,
    measure: zeroDays,
  },
  {
    id: "inbox-zero-100",
    name: "Zero Legend",
    description: "Reach inbox zero on 100 different days.",
    tier: "platinum",
    icon: "star",
    category: "inbox_zero",
    target: 100,
    measure: zeroDays,
  },
  {
    id: "streak-3",
    name: "On a Roll",
    description: "Reach inbox zero 3 days in a row.",
    tier: "bronze",
    icon: "flame",
    category: "streak",
    target: 3,
    measure: streak,
  },
  {
    id: "streak-7",
    name: "Week Warrior",
    description: "Reach inbox zero 7 days in a row.",
    tier: "silver",
    icon: "calendar",
    category: "streak",
    target: 7,
    measure: streak,
  },
  {
    id: "streak-30",
    name: "Monthly Marathon",
    description: "Reach inbox zero 30 days in a row.",
    tier: "gold",
    icon: "mountain",
    category: "streak",
    target: 30,
    measure: streak,
  },
  {
    id: "streak-100",
    name: "Unstoppable",
    description: "Reach inbox zero 100 days in a row.",
    tier: "platinum",
    icon: "bolt",
    category: "streak",
    target: 100,
    measure: streak,
  },
  {
    id: "unsubscribe-1",
    name: "Clean Sweep",
    description: "Unsubscribe from a mailing list.",
    tier: "bronze",
    icon: "broom",
    category: "unsubscribe",
    target: 1,
    measure: unsubscribes,
  },
  {
    id: "unsubscribe-10",
    name: "Declutterer",
    description: "Unsubscribe from 10 senders.",
    tier: "silver",
    icon: "trash",
    category: "unsubscribe",
    target: 10,
    measure: unsubscribes,
  },
  {
    id: "unsubscribe-50",
    name: "Noise Cancelling",
    description: "Unsubscribe from 50 senders.",
    tier: "gold",
    icon: "mute",
    category: "unsubscribe",
    target: 50,
    measure: unsubscribes,
  },
  {
    id: "ai-1",
    name: "AI Curious",
    description: "Use an AI feature: analysis, reply suggestions, compose help or Improve.",
    tier: "bronze",
    icon: "bot",
    category: "ai",
    target: 1,
    measure: aiUses,
  },
  {
    id: "ai-25",
    name: "AI Partner",
    description: "Use AI features 25 times (each email, and compose help, count once a day).",
    tier: "silver",
    icon: "sparkles",
    category: "ai",
    target: 25,
    measure: aiUses,
  },
  {
    id: "ai-100",
    name: "AI Power User",
    description: "Use AI features 100 times (each email, and compose help, count once a day).",
    tier: "gold",
    icon: "rocket",
    category: "ai",
    target: 100,
    measure: aiUses,
  },
  {
    id: "early-adopter",
    name: "Early Adopter",
    description: "Joined Mailwise early (worth 500 leaderboard points unless you are a founding member).",
    tier: "gold",
    icon: "sprout",
    category: "early",
    target: 1,
    measure: (c) => (c.isEarlyAdopter || c.isFoundingMember ? 1 : 0),
  },
  {
    id: "founding-member",
    name: "Founding Member",
    description: "One of the first people on Mailwise (worth 1,000 leaderboard points).",
    tier: "platinum",
    icon: "crown",
    category: "early",
    target: 1,
    measure: (c) => (c.isFoundingMember ? 1 : 0),
  },
];

/** The badges whose target the counters reach. */
export function badgesMet(counters: GameCounters): BadgeDefinition[] {
  return BADGES.filter((b) => b.measure(counters) >= b.target);
}
