import { Temporal } from "temporal-polyfill";

/**
 * Times a person picks from a menu (issue 37: send later, snooze), computed in their time zone
 * (an IANA name, the browser's by default) so "8 AM" is 8 AM where they are, across DST changes.
 * Pure: the caller gives the current instant.
 */

function zonedNow(now: Date, timeZone: string): Temporal.ZonedDateTime {
  return Temporal.Instant.fromEpochMilliseconds(now.getTime()).toZonedDateTimeISO(timeZone);
}

function at8(date: Temporal.PlainDate, timeZone: string): Date {
  const zoned = date.toZonedDateTime({ timeZone, plainTime: Temporal.PlainTime.from("08:00") });
  return new Date(zoned.epochMilliseconds);
}

/** 8:00 local time on the next calendar day. */
export function tomorrowAt8(now: Date, timeZone: string): Date {
  return at8(zonedNow(now, timeZone).toPlainDate().add({ days: 1 }), timeZone);
}

/** 8:00 local time on the next Monday strictly after today (a week ahead when today is Monday). */
export function nextMondayAt8(now: Date, timeZone: string): Date {
  const today = zonedNow(now, timeZone).toPlainDate();
  // dayOfWeek: Monday 1 ... Sunday 7.
  const days = 8 - today.dayOfWeek;
  return at8(today.add({ days }), timeZone);
}
