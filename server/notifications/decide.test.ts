import { describe, expect, it } from "vitest";
import { decideNotification, inQuietHours, type NotifyCandidate, type NotifyPreferences } from "./decide.ts";

const ACCOUNT = "3f0c6f7e-0000-4000-8000-000000000001";

const prefs = (over: Partial<NotifyPreferences> = {}): NotifyPreferences => ({
  mode: "important",
  mutedAccountIds: [],
  quietHours: null,
  timeZone: "UTC",
  ...over,
});

const mail = (over: Partial<NotifyCandidate> = {}): NotifyCandidate => ({
  accountId: ACCOUNT,
  fromName: "Priya Shah",
  fromAddress: "priya@example.com",
  subject: "Lunch",
  snippet: "See you there",
  bucket: "personal",
  listUnsubscribe: null,
  aiAnalysis: { category: "personal", importance: 5, urgency: "low", security: { verdict: "safe" } },
  isRead: false,
  inInbox: true,
  isSpam: false,
  isTrashed: false,
  isSent: false,
  isDraft: false,
  providerCategory: null,
  isVip: false,
  ...over,
});

const NOON = new Date("2026-12-06T12:00:00Z");

describe("quiet hours", () => {
  const night = { start: "22:00", end: "07:00" };
  it("span midnight: quiet late in the evening and early in the morning, not by day", () => {
    expect(inQuietHours(new Date("2026-12-06T23:30:00Z"), night, "UTC")).toBe(true);
    expect(inQuietHours(new Date("2026-12-06T00:00:00Z"), night, "UTC")).toBe(true);
    expect(inQuietHours(new Date("2026-12-06T06:59:00Z"), night, "UTC")).toBe(true);
    expect(inQuietHours(new Date("2026-12-06T07:00:00Z"), night, "UTC")).toBe(false);
    expect(inQuietHours(new Date("2026-12-06T21:59:00Z"), night, "UTC")).toBe(false);
    expect(inQuietHours(new Date("2026-12-06T22:00:00Z"), night, "UTC")).toBe(true);
  });

  it("within one day: start included, end excluded", () => {
    const lunch = { start: "12:00", end: "13:00" };
    expect(inQuietHours(new Date("2026-12-06T12:00:00Z"), lunch, "UTC")).toBe(true);
    expect(inQuietHours(new Date("2026-12-06T13:00:00Z"), lunch, "UTC")).toBe(false);
    expect(inQuietHours(new Date("2026-12-06T11:59:00Z"), lunch, "UTC")).toBe(false);
  });

  it("are read in the person's time zone", () => {
    // 23:30 UTC is 08:30 the next morning in Tokyo (after the quiet hours) and 18:30 in New York.
    const at = new Date("2026-12-06T23:30:00Z");
    expect(inQuietHours(at, night, "Asia/Tokyo")).toBe(false);
    expect(inQuietHours(at, night, "America/New_York")).toBe(false);
    // 05:30 UTC is 22:30 in Denver (the evening before: quiet) and 14:30 in Tokyo.
    const early = new Date("2026-12-06T05:30:00Z");
    expect(inQuietHours(early, night, "America/Denver")).toBe(true);
    expect(inQuietHours(early, night, "Asia/Tokyo")).toBe(false);
  });

  it("hold back an important mail, which goes through outside them", () => {
    const quiet = prefs({ quietHours: { start: "22:00", end: "07:00" }, timeZone: "Europe/Paris" });
    const vip = mail({ isVip: true });
    expect(decideNotification(quiet, vip, new Date("2026-12-06T23:00:00Z"))).toEqual({
      notify: false,
      reason: "quiet_hours",
    });
    expect(decideNotification(quiet, vip, NOON)).toEqual({ notify: true });
  });
});

describe("which mail is notified", () => {
  it("Important mail: VIP senders, high urgency, importance 8 or more, action items", () => {
    expect(decideNotification(prefs(), mail(), NOON)).toEqual({ notify: false, reason: "not_important" });
    expect(decideNotification(prefs(), mail({ isVip: true }), NOON).notify).toBe(true);
    const urgent = mail({ aiAnalysis: { category: "work", importance: 3, urgency: "high" } });
    expect(decideNotification(prefs(), urgent, NOON).notify).toBe(true);
    const eight = mail({ aiAnalysis: { category: "work", importance: 8, urgency: "low" } });
    expect(decideNotification(prefs(), eight, NOON).notify).toBe(true);
    // 7 is below the bar, but the action items count 7 as important (server/mail/action-rules.ts): 6 is neither.
    const six = mail({ aiAnalysis: { category: "work", importance: 6, urgency: "low" } });
    expect(decideNotification(prefs(), six, NOON).notify).toBe(false);
    const asks = mail({ subject: "Could you review the contract by Friday?" });
    expect(decideNotification(prefs(), asks, NOON).notify).toBe(true);
  });

  it("All new mail notifies an ordinary mail; Off notifies nothing", () => {
    expect(decideNotification(prefs({ mode: "all" }), mail(), NOON)).toEqual({ notify: true });
    expect(decideNotification(prefs({ mode: "off" }), mail({ isVip: true }), NOON)).toEqual({
      notify: false,
      reason: "off",
    });
  });

  it("never newsletters, promotions or social mail, even from a VIP or in All new mail", () => {
    const all = prefs({ mode: "all" });
    for (const category of ["newsletter", "promotions", "social"]) {
      const m = mail({ isVip: true, aiAnalysis: { category, importance: 9, urgency: "high" } });
      expect(decideNotification(all, m, NOON)).toEqual({ notify: false, reason: "bulk" });
    }
    expect(decideNotification(all, mail({ bucket: "newsletters" }), NOON).notify).toBe(false);
    expect(decideNotification(all, mail({ providerCategory: "promotions" }), NOON).notify).toBe(false);
  });

  it("never spam or mail the security scan distrusts", () => {
    const all = prefs({ mode: "all" });
    expect(decideNotification(all, mail({ isSpam: true }), NOON)).toEqual({
      notify: false,
      reason: "spam_like",
    });
    const phish = mail({
      isVip: true,
      aiAnalysis: { category: "work", importance: 9, security: { verdict: "dangerous" } },
    });
    expect(decideNotification(all, phish, NOON)).toEqual({ notify: false, reason: "spam_like" });
  });

  it("never mail already read elsewhere, nor mail outside the inbox", () => {
    const all = prefs({ mode: "all" });
    expect(decideNotification(all, mail({ isRead: true, isVip: true }), NOON)).toEqual({
      notify: false,
      reason: "read",
    });
    expect(decideNotification(all, mail({ inInbox: false }), NOON).notify).toBe(false);
    expect(decideNotification(all, mail({ isSent: true }), NOON).notify).toBe(false);
  });

  it("respects an account turned off", () => {
    const muted = prefs({ mode: "all", mutedAccountIds: [ACCOUNT] });
    expect(decideNotification(muted, mail(), NOON)).toEqual({ notify: false, reason: "account_muted" });
  });
});
