import { describe, expect, it } from "vitest";
import { accountStatusLabel } from "./account-status.ts";
import { formatDay, planName, trialDaysLeft } from "./plan.ts";

describe("plan display", () => {
  it("names plans and counts trial days", () => {
    expect(planName("trial")).toBe("Free trial");
    const now = new Date("2026-01-01T00:00:00Z");
    expect(trialDaysLeft("2026-01-15T00:00:00Z", now)).toBe(14);
    expect(trialDaysLeft("2025-12-01T00:00:00Z", now)).toBe(0);
    expect(trialDaysLeft("not a date", now)).toBe(0);
    expect(formatDay("2026-01-15T12:00:00Z", "en-GB")).toBe("15 January 2026");
    expect(formatDay("nope")).toBe("nope");
  });

  it("labels accounts that need reconnecting", () => {
    expect(accountStatusLabel("reauth_required")).toBe("Needs reconnect");
    expect(accountStatusLabel("active")).toBe("Connected");
  });
});
