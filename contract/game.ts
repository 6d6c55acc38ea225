import { z } from "zod";

/** Spec section 3: the four badge tiers, lowest first. */
export const BADGE_TIERS = ["bronze", "silver", "gold", "platinum"] as const;
export const badgeTierSchema = z.enum(BADGE_TIERS);
export type BadgeTier = z.infer<typeof badgeTierSchema>;

export const BADGE_CATEGORIES = ["processing", "inbox_zero", "streak", "unsubscribe", "ai", "early"] as const;
export const badgeCategorySchema = z.enum(BADGE_CATEGORIES);
export type BadgeCategory = z.infer<typeof badgeCategorySchema>;

/**
 * The picture of a badge, by name: the client draws each as its own SVG. Not emoji: without a
 * colour-emoji font (Debian's Chromium has none) an emoji shows as an empty box.
 */
export const BADGE_ICONS = [
  "envelope",
  "inbox",
  "folders",
  "pillars",
  "target",
  "shield",
  "sunrise",
  "star",
  "flame",
  "calendar",
  "mountain",
  "bolt",
  "broom",
  "trash",
  "mute",
  "bot",
  "sparkles",
  "rocket",
  "sprout",
  "crown",
] as const;
export const badgeIconSchema = z.enum(BADGE_ICONS);
export type BadgeIcon = z.infer<typeof badgeIconSchema>;

/** Spec section 3: Badge. */
export const badgeSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  tier: badgeTierSchema,
  /** The name of the badge's picture (BADGE_ICONS). */
  icon: badgeIconSchema,
  category: badgeCategorySchema,
  /** ISO 8601; null while the badge is not earned. */
  earnedAt: z.string().nullable(),
  progress: z.object({
    current: z.number().int().min(0),
    target: z.number().int().min(1),
    /** 0-100, whole numbers. */
    percentage: z.number().int().min(0).max(100),
  }),
});
export type Badge = z.infer<typeof badgeSchema>;

/** Spec section 3: Badge progress response (GET /api/badges/progress). */
export const badgeProgressSchema = z.object({
  stats: z.object({
    earnedBadges: z.number().int(),
    totalBadges: z.number().int(),
    bronzeBadges: z.number().int(),
    silverBadges: z.number().int(),
    goldBadges: z.number().int(),
    platinumBadges: z.number().int(),
  }),
  earnedBadges: z.array(badgeSchema),
  availableBadges: z.array(badgeSchema),
});
export type BadgeProgress = z.infer<typeof badgeProgressSchema>;

/** Spec section 3: one leaderboard entry. Never carries an email address. */
export const leaderboardEntrySchema = z.object({
  userId: z.string(),
  rank: z.number().int().min(1),
  displayName: z.string(),
  score: z.number().int(),
  inboxZeroStreak: z.number().int().min(0),
  bestInboxZeroStreak: z.number().int().min(0),
  totalBadgesEarned: z.number().int().min(0),
  totalEmailsProcessed: z.number().int().min(0),
  /** ISO 8601. */
  joinedDate: z.string(),
  isFoundingMember: z.boolean(),
  /** Only true when the person is not a founding member (spec section 6). */
  isEarlyAdopter: z.boolean(),
});
export type LeaderboardEntry = z.infer<typeof leaderboardEntrySchema>;

/** Spec section 3: Leaderboard (GET /api/leaderboard). */
export const leaderboardSchema = z.object({
  topUsers: z.array(leaderboardEntrySchema),
  /** People on the global ranking (those who hid themselves are not counted). */
  totalUsers: z.number().int().min(0),
  currentUser: leaderboardEntrySchema,
});
export type Leaderboard = z.infer<typeof leaderboardSchema>;

export const DISPLAY_NAME_MAX = 40;
/** Something shaped like an email address anywhere in the text. */
export const EMAIL_ADDRESS_PATTERN = /(?<![^\s@])[^\s@]+@(?=[^\s@]+\.[^\s@])/;

/**
 * Characters a name shown to others must not carry: controls (CR, LF, TAB among them), format
 * characters (bidi overrides and isolates, zero-width joiners, the soft hyphen), private-use,
 * unassigned and surrogate code points, line and paragraph separators, and everything Unicode
 * marks as default-ignorable (variation selectors, Hangul fillers), plus the blank braille cell:
 * each either renders as nothing or changes how the text around it reads.
 */
export const INVISIBLE_OR_CONTROL =
  /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\u2800]/u;

/**
 * PATCH /api/user/display-name: NFKC-normalised (full-width and compatibility forms become plain
 * letters), no invisible or control characters, runs of spaces made one, trimmed, non-empty, at
 * most 40 characters, no email address. The server also reserves generated and staff-like names.
 */
export const displayNameRequestSchema = z.object({
  displayName: z
    .string()
    .normalize("NFKC")
    .refine(
      (s) => !INVISIBLE_OR_CONTROL.test(s),
      "Display name must not contain invisible or control characters",
    )
    .transform((s) => s.replace(/\p{Zs}+/gu, " ").trim())
    .pipe(
      z
        .string()
        .min(1, "Display name must not be empty")
        .max(DISPLAY_NAME_MAX, `Display name must be at most ${DISPLAY_NAME_MAX} characters`)
        .refine((s) => !EMAIL_ADDRESS_PATTERN.test(s), "Display name must not contain an email address"),
    ),
});
export const displayNameResponseSchema = z.object({ displayName: z.string() });

/** GET/PATCH /api/user/leaderboard-settings: the ranking's privacy switch and the streak time zone. */
export const leaderboardSettingsSchema = z.object({
  displayName: z.string(),
  showOnLeaderboard: z.boolean(),
  /** IANA time zone the inbox-zero days and streaks are counted in. */
  timeZone: z.string(),
});
export type LeaderboardSettings = z.infer<typeof leaderboardSettingsSchema>;

export const leaderboardSettingsPatchSchema = z
  .object({
    showOnLeaderboard: z.boolean().optional(),
    timeZone: z.string().min(1).max(64).refine(isTimeZone, "Unknown time zone").optional(),
  })
  .refine((v) => v.showOnLeaderboard !== undefined || v.timeZone !== undefined, {
    message: "Nothing to change",
  });

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
