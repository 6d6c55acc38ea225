import { describe, expect, it } from "vitest";
import { inboxZeroProgress } from "./mail-queries.ts";

const progress = (unreadCount: number, totalEmails: number) =>
  inboxZeroProgress({ unreadCount, totalEmails });

describe("inboxZeroProgress", () => {
  it("shows 100% only when nothing is unread", () => {
    expect(progress(2, 1671)).toBe(99);
    expect(progress(1, 1000)).toBe(99);
    expect(progress(0, 1671)).toBe(100);
    expect(progress(0, 0)).toBe(100);
  });

  it("floors to whole percents without floating-point slips, and never goes below 0", () => {
    expect(progress(3, 10)).toBe(70);
    expect(progress(1, 3)).toBe(66);
    expect(progress(2, 3)).toBe(33);
    expect(progress(7, 100)).toBe(93);
    expect(progress(10, 10)).toBe(0);
    expect(progress(12, 10)).toBe(0);
  });
});
