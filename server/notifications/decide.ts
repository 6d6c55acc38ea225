import type { NotificationMode, QuietHours } from "../../contract/notifications.ts";
import { type ActionCandidate, actionReason } from "../mail/action-rules.ts";

/** What the decision reads of the person's setting. */
export interface NotifyPreferences {
  mode: NotificationMode;
  mutedAccountIds: readonly string[];
  quietHours: QuietHours | null;
  timeZone: string;
}

/** What the decision reads of one new mail (after its analysis). */
export interface NotifyCandidate extends ActionCandidate {
  accountId: string;
  isRead: boolean;
  inInbox: boolean;
  isSpam: boolean;
  isTrashed: boolean;
  isSent: boolean;
  isDraft: boolean;
  providerCategory: string | null;
  /** The sender is one of the person's VIP contacts (agent preferences). */
  isVip: boolean;
}

export type NotifyDecision =
  | { notify: true }
  | {
      notify: false;
      reason:
        | "off"
        | "account_muted"
        | "read"
        | "not_inbox"
        | "bulk"
        | "spam_like"
        | "not_important"
        | "quiet_hours";
    };

/** Analyzer categories and buckets that are never notified: lists, shops and social networks. */
const BULK_CATEGORIES = new Set(["newsletter", "promotions", "social"]);
const BULK_BUCKETS = new Set(["newsletters", "promotions", "social"]);
const BULK_PROVIDER_CATEGORIES = new Set(["promotions", "social", "forums"]);

/** "Important mail" (issue 38): importance of 8 or more. */
export const IMPORTANT_FROM = 8;

/**
 * Whether one new mail is worth interrupting the person for. Order matters only for the reason
 * recorded: everything is checked before "important" so a VIP's newsletter stays quiet.
 */
export function decideNotification(
  prefs: NotifyPreferences,
  mail: NotifyCandidate,
  now: Date,
): NotifyDecision {
  if (prefs.mode === "off") return { notify: false, reason: "off" };
  if (prefs.mutedAccountIds.includes(mail.accountId)) return { notify: false, reason: "account_muted" };
  if (mail.isSent || mail.isDraft || mail.isTrashed || !mail.inInbox)
    return { notify: false, reason: "not_inbox" };
  if (mail.isRead) return { notify: false, reason: "read" };
  if (mail.isSpam || spamLike(mail.aiAnalysis)) return { notify: false, reason: "spam_like" };
  if (bulk(mail)) return { notify: false, reason: "bulk" };
  if (prefs.mode === "important" && !important(mail)) return { notify: false, reason: "not_important" };
  if (prefs.quietHours && inQuietHours(now, prefs.quietHours, prefs.timeZone))
    return { notify: false, reason: "quiet_hours" };
  return { notify: true };
}

function bulk(mail: NotifyCandidate): boolean {
  const category = mail.aiAnalysis?.category;
  if (typeof category === "string" && BULK_CATEGORIES.has(category)) return true;
  if (mail.bucket && BULK_BUCKETS.has(mail.bucket)) return true;
  return mail.providerCategory !== null && BULK_PROVIDER_CATEGORIES.has(mail.providerCategory);
}

/** The analyzer's security scan found something (phishing, spoofing): never pushed to a lock screen. */
function spamLike(analysis: Record<string, unknown> | null): boolean {
  const security = analysis?.security;
  if (typeof security !== "object" || security === null) return false;
  const verdict = (security as { verdict?: unknown }).verdict;
  return verdict === "suspicious" || verdict === "dangerous";
}

/** "Important mail": a VIP sender, high urgency, importance 8 or more, or an action item. */
function important(mail: NotifyCandidate): boolean {
  if (mail.isVip) return true;
  const analysis = mail.aiAnalysis;
  if (analysis?.urgency === "high") return true;
  const importance = analysis?.importance;
  if (typeof importance === "number" && importance >= IMPORTANT_FROM) return true;
  return actionReason(mail) !== null;
}

/** Minutes since midnight of "HH:MM". */
function minutesOf(time: string): number {
  const [h, m] = time.split(":");
  return Number(h) * 60 + Number(m);
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock minute of `now` in `timeZone` (0-1439). */
export function localMinute(now: Date, timeZone: string): number {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-GB", {
      timeZone,
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    formatters.set(timeZone, format);
  }
  const parts = format.formatToParts(now);
  const hour = Number(parts.find((p) => p.type === "hour")?.value ?? 0);
  const minute = Number(parts.find((p) => p.type === "minute")?.value ?? 0);
  return hour * 60 + minute;
}

/**
 * Whether `now` falls in the quiet hours, start included and end excluded. An end before the
 * start spans midnight: 22:00-07:00 is quiet at 23:30 and at 06:59, not at 07:00 or 21:59.
 */
export function inQuietHours(now: Date, quiet: QuietHours, timeZone: string): boolean {
  const minute = localMinute(now, timeZone);
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  return start < end ? minute >= start && minute < end : minute >= start || minute < end;
}
