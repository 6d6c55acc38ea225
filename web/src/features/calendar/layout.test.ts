import { describe, expect, it } from "vitest";
import type { CalendarEvent } from "../../../../contract/calendar.ts";
import { calendarWindow, stepDate } from "../../../../contract/calendar-window.ts";
import { allDayOn, layoutDay, segmentsForDay } from "./layout.ts";

function event(id: string, start: string, end: string, allDay = false): CalendarEvent {
  return {
    id,
    title: id,
    start,
    end,
    allDay,
    timeZone: null,
    location: null,
    attendees: [],
    organizer: null,
    status: "confirmed",
    provider: "google",
    calendarEmail: "a@b.c",
    integrationId: "i",
    recurring: false,
    htmlLink: null,
  };
}

describe("calendar window", () => {
  it("computes day, week (Monday first) and whole-week month windows in the zone", () => {
    const day = calendarWindow("2026-03-08", "day", "America/New_York");
    // The spring-forward day is 23 hours long.
    expect(Date.parse(day.end) - Date.parse(day.start)).toBe(23 * 3_600_000);
    expect(day.start).toBe("2026-03-08T05:00:00Z");
    const week = calendarWindow("2026-11-26", "week", "Europe/Berlin");
    expect(week.days[0]).toBe("2026-11-23");
    expect(week.days).toHaveLength(7);
    const month = calendarWindow("2026-11-15", "month", "UTC");
    expect(month.startDate).toBe("2026-10-26");
    expect(month.endDate).toBe("2026-12-07");
    expect(month.days.length % 7).toBe(0);
  });

  it("steps one day, seven days or one month", () => {
    expect(stepDate("2026-01-31", "day", 1)).toBe("2026-02-01");
    expect(stepDate("2026-01-31", "week", -1)).toBe("2026-01-24");
    expect(stepDate("2026-01-31", "month", 1)).toBe("2026-02-28");
  });
});

describe("day layout", () => {
  it("places overlapping events side by side and lone ones full width", () => {
    const zone = "UTC";
    const placed = layoutDay(
      segmentsForDay(
        [
          event("a", "2026-05-04T11:00:00Z", "2026-05-04T12:00:00Z"),
          event("b", "2026-05-04T11:30:00Z", "2026-05-04T12:30:00Z"),
          event("c", "2026-05-04T12:00:00Z", "2026-05-04T12:15:00Z"),
          event("d", "2026-05-04T15:00:00Z", "2026-05-04T16:00:00Z"),
        ],
        "2026-05-04",
        zone,
      ),
    );
    const byId = Object.fromEntries(placed.map((p) => [p.event.id, p]));
    expect(byId.a).toMatchObject({ column: 0, columns: 2, startMin: 660, endMin: 720 });
    expect(byId.b).toMatchObject({ column: 1, columns: 2 });
    // c starts when a ends: it reuses a's column within the same cluster.
    expect(byId.c).toMatchObject({ column: 0, columns: 2 });
    expect(byId.d).toMatchObject({ column: 0, columns: 1 });
  });

  it("positions by wall-clock time on both sides of a DST change, and splits events over midnight", () => {
    const zone = "America/New_York";
    const before = segmentsForDay(
      [event("s", "2026-03-06T14:30:00Z", "2026-03-06T14:45:00Z")],
      "2026-03-06",
      zone,
    );
    const after = segmentsForDay(
      [event("s", "2026-03-09T13:30:00Z", "2026-03-09T13:45:00Z")],
      "2026-03-09",
      zone,
    );
    expect(before[0]?.startMin).toBe(9 * 60 + 30);
    expect(after[0]?.startMin).toBe(9 * 60 + 30);
    const flight = event("f", "2026-05-04T22:00:00Z", "2026-05-05T06:10:00Z");
    const first = segmentsForDay([flight], "2026-05-04", "UTC")[0];
    const second = segmentsForDay([flight], "2026-05-05", "UTC")[0];
    expect(first).toMatchObject({ startMin: 1320, endMin: 1440, continuesAfter: true });
    expect(second).toMatchObject({ startMin: 0, endMin: 370, continuesBefore: true });
  });

  it("lists all-day events on each day they cover, end date exclusive", () => {
    const offsite = event("o", "2026-05-07", "2026-05-09", true);
    expect(allDayOn([offsite], "2026-05-07")).toHaveLength(1);
    expect(allDayOn([offsite], "2026-05-08")).toHaveLength(1);
    expect(allDayOn([offsite], "2026-05-09")).toHaveLength(0);
  });
});
