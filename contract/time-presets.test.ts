import { describe, expect, it } from "vitest";
import { nextMondayAt8, tomorrowAt8 } from "./time-presets.ts";

describe("time presets (issue 37)", () => {
  it("tomorrow 8 AM is 8:00 local on the next calendar day, late at night included", () => {
    // 23:30 in New York on Friday 4 Dec 2026 (04:30 UTC Saturday).
    const now = new Date("2026-12-05T04:30:00Z");
    expect(tomorrowAt8(now, "America/New_York").toISOString()).toBe("2026-12-05T13:00:00.000Z");
    // The same instant is already Saturday in Tokyo.
    expect(tomorrowAt8(now, "Asia/Tokyo").toISOString()).toBe("2026-12-05T23:00:00.000Z");
  });

  it("keeps 8 AM across a daylight-saving change", () => {
    // Saturday 7 March 2026 in New York; clocks go forward on Sunday the 8th.
    const now = new Date("2026-03-07T15:00:00Z");
    expect(tomorrowAt8(now, "America/New_York").toISOString()).toBe("2026-03-08T12:00:00.000Z");
  });

  it("next Monday 8 AM is strictly after today: a Monday gives the next week's", () => {
    const sunday = new Date("2026-12-06T10:00:00Z");
    expect(nextMondayAt8(sunday, "Europe/Berlin").toISOString()).toBe("2026-12-07T07:00:00.000Z");
    const mondayMorning = new Date("2026-12-07T06:00:00Z");
    expect(nextMondayAt8(mondayMorning, "Europe/Berlin").toISOString()).toBe("2026-12-14T07:00:00.000Z");
    const wednesday = new Date("2026-12-09T20:00:00Z");
    expect(nextMondayAt8(wednesday, "UTC").toISOString()).toBe("2026-12-14T08:00:00.000Z");
  });
});
