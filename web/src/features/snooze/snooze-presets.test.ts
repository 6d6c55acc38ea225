import { describe, expect, it } from "vitest";
import { laterToday, nextMondayAt8, thisWeekendAt8, tomorrowAt8 } from "../../../../contract/time-presets.ts";
import { pickedTimeProblem } from "./snooze-presets.ts";

/** The wall time of `at` in `zone`, "Sat 2026-12-12 08:00". */
function wall(at: Date, zone: string): string {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone: zone,
    weekday: "short",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${get("weekday")} ${get("year")}-${get("month")}-${get("day")} ${get("hour")}:${get("minute")}`;
}

describe("snooze presets in the person's zone (contract/time-presets.ts)", () => {
  // Wednesday 2026-12-09 23:30 in Tokyo is still Wednesday 14:30 UTC.
  const now = new Date("2026-12-09T14:30:00Z");

  it("computes 8 AM in the person's zone, not the server's", () => {
    expect(wall(tomorrowAt8(now, "Asia/Tokyo"), "Asia/Tokyo")).toBe("Thu 2026-12-10 08:00");
    expect(wall(tomorrowAt8(now, "America/Los_Angeles"), "America/Los_Angeles")).toBe("Thu 2026-12-10 08:00");
    expect(wall(thisWeekendAt8(now, "Europe/Paris"), "Europe/Paris")).toBe("Sat 2026-12-12 08:00");
    expect(wall(nextMondayAt8(now, "Europe/Paris"), "Europe/Paris")).toBe("Mon 2026-12-14 08:00");
    expect(laterToday(now, "UTC").getTime() - now.getTime()).toBe(3 * 60 * 60 * 1000);
  });

  it("on a Saturday afternoon 'this weekend' is next Saturday; on a Monday 'next week' is a week on", () => {
    const saturday = new Date("2026-12-12T15:00:00Z");
    expect(wall(thisWeekendAt8(saturday, "UTC"), "UTC")).toBe("Sat 2026-12-19 08:00");
    const saturdayMorning = new Date("2026-12-12T06:00:00Z");
    expect(wall(thisWeekendAt8(saturdayMorning, "UTC"), "UTC")).toBe("Sat 2026-12-12 08:00");
    const monday = new Date("2026-12-14T07:00:00Z");
    expect(wall(nextMondayAt8(monday, "UTC"), "UTC")).toBe("Mon 2026-12-21 08:00");
  });

  it("keeps 8 AM wall time across a DST change", () => {
    // Europe/Berlin leaves summer time on Sunday 2026-10-25.
    const saturday = new Date("2026-10-24T12:00:00Z");
    const monday = nextMondayAt8(saturday, "Europe/Berlin");
    expect(wall(monday, "Europe/Berlin")).toBe("Mon 2026-10-26 08:00");
    expect(monday.toISOString()).toBe("2026-10-26T07:00:00.000Z");
  });

  it("the picker refuses an empty, past or too far time", () => {
    const at = new Date("2026-12-09T14:30:00");
    expect(pickedTimeProblem("", at)).toBe("Pick a date and time.");
    expect(pickedTimeProblem("2026-12-09T14:00", at)).toBe("Pick a time in the future.");
    expect(pickedTimeProblem("2028-01-01T08:00", at)).toBe("Pick a time within a year.");
    expect(pickedTimeProblem("2026-12-10T08:00", at)).toBeNull();
  });
});
