import { Temporal } from "temporal-polyfill";

/**
 * The times "not now" menus offer (issue 37: snooze, send later), computed in the person's IANA
 * time zone so 8 AM is their 8 AM whatever the server's or the browser's zone, and a day across a
 * DST change still lands on 8 AM wall time. Pure: (now, timeZone) -> the instant. Shared by the
 * server and the web client so both agree on what a preset means.
 */

const EIGHT_AM = Temporal.PlainTime.from("08:00");

function zoned(now: Date, timeZone: string): Temporal.ZonedDateTime {
  return Temporal.Instant.fromEpochMilliseconds(now.getTime()).toZonedDateTimeISO(timeZone);
}

function at8(date: Temporal.PlainDate, timeZone: string): Date {
  // "compatible": a wall time skipped by a DST jump moves forward, as a person would expect.
  const instant = date.toZonedDateTime({ timeZone, plainTime: EIGHT_AM }).toInstant();
  return new Date(instant.epochMilliseconds);
}

/** Three hours from now. */
export function laterToday(now: Date, _timeZone: string): Date {
  return new Date(now.getTime() + 3 * 60 * 60 * 1000);
}

/** 8 AM tomorrow in the person's zone. */
export function tomorrowAt8(now: Date, timeZone: string): Date {
  return at8(zoned(now, timeZone).toPlainDate().add({ days: 1 }), timeZone);
}

/**
 * Saturday 8 AM: this week's, or next week's once this Saturday's 8 AM has passed (on a Saturday
 * afternoon or a Sunday "this weekend" means the coming one).
 */
export function thisWeekendAt8(now: Date, timeZone: string): Date {
  const today = zoned(now, timeZone).toPlainDate();
  // ISO days: Monday 1 ... Saturday 6, Sunday 7.
  const ahead = (6 - today.dayOfWeek + 7) % 7;
  const saturday = at8(today.add({ days: ahead }), timeZone);
  return saturday.getTime() > now.getTime() ? saturday : at8(today.add({ days: ahead + 7 }), timeZone);
}

/** The next Monday's 8 AM (on a Monday, next week's: "next week" never means today). */
export function nextMondayAt8(now: Date, timeZone: string): Date {
  const today = zoned(now, timeZone).toPlainDate();
  const ahead = (1 - today.dayOfWeek + 7) % 7 || 7;
  return at8(today.add({ days: ahead }), timeZone);
}

/** Whether `name` is an IANA zone the time zone database knows. */
export function isTimeZone(name: string): boolean {
  if (name.length === 0 || name.length > 64) return false;
  try {
    Temporal.Now.instant().toZonedDateTimeISO(name);
    return true;
  } catch {
    return false;
  }
}
