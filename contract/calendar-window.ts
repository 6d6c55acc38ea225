import { Temporal } from "temporal-polyfill";
import type { CalendarView } from "./calendar.ts";

/**
 * The days a calendar view shows, computed in the person's time zone so midnight is their
 * midnight (a DST day has 23 or 25 hours). Weeks start on Monday (ISO 8601); a month view shows
 * whole weeks, so it starts on the Monday on or before the 1st and ends after the Sunday on or
 * after the last day. Shared by the server (which picks events) and the web client (which draws
 * the grid), so both always agree on the window.
 */
export interface CalendarWindow {
  /** First day shown and the day after the last one shown (exclusive). */
  startDate: string;
  endDate: string;
  /** The same bounds as instants (ISO, Z): local midnight in `timeZone`. */
  start: string;
  end: string;
  timeZone: string;
  /** The days shown, in order. */
  days: string[];
}

export function isValidTimeZone(name: string): boolean {
  if (name.length === 0 || name.length > 64) return false;
  try {
    Temporal.PlainDate.from("2020-01-01").toZonedDateTime({ timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export function isValidDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  try {
    Temporal.PlainDate.from(text, { overflow: "reject" });
    return true;
  } catch {
    return false;
  }
}

export function calendarWindow(date: string, view: CalendarView, timeZone: string): CalendarWindow {
  const day = Temporal.PlainDate.from(date, { overflow: "reject" });
  let first: Temporal.PlainDate;
  let afterLast: Temporal.PlainDate;
  if (view === "day") {
    first = day;
    afterLast = day.add({ days: 1 });
  } else if (view === "week") {
    first = day.subtract({ days: day.dayOfWeek - 1 });
    afterLast = first.add({ days: 7 });
  } else {
    const firstOfMonth = day.with({ day: 1 });
    const lastOfMonth = firstOfMonth.add({ months: 1 }).subtract({ days: 1 });
    first = firstOfMonth.subtract({ days: firstOfMonth.dayOfWeek - 1 });
    afterLast = lastOfMonth.add({ days: 8 - lastOfMonth.dayOfWeek });
  }
  const days: string[] = [];
  for (let d = first; Temporal.PlainDate.compare(d, afterLast) < 0; d = d.add({ days: 1 }))
    days.push(d.toString());
  const instant = (d: Temporal.PlainDate) => d.toZonedDateTime({ timeZone }).toInstant().toString();
  return {
    startDate: first.toString(),
    endDate: afterLast.toString(),
    start: instant(first),
    end: instant(afterLast),
    timeZone,
    days,
  };
}

/** The date a previous/next press moves to: 1 day, 7 days or 1 month (spec section 9). */
export function stepDate(date: string, view: CalendarView, direction: 1 | -1): string {
  const day = Temporal.PlainDate.from(date);
  const step = view === "day" ? { days: 1 } : view === "week" ? { days: 7 } : { months: 1 };
  return (direction === 1 ? day.add(step) : day.subtract(step)).toString();
}

/** Today's date in a zone. */
export function todayIn(timeZone: string, nowMs: number = Date.now()): string {
  return Temporal.Instant.fromEpochMilliseconds(nowMs).toZonedDateTimeISO(timeZone).toPlainDate().toString();
}
