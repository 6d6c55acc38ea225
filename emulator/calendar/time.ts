import { Temporal } from "temporal-polyfill";

/**
 * When an event happens, as both providers store it: a wall-clock time in a named IANA zone,
 * or a floating date for all-day events (the end date is exclusive, as in iCalendar).
 */
export type EventTime =
  | { readonly kind: "timed"; readonly local: string; readonly timeZone: string }
  | { readonly kind: "date"; readonly date: string };

/** The instant of a timed value; a date counts from midnight in `calendarZone`. */
export function instantOf(time: EventTime, calendarZone: string): number {
  if (time.kind === "timed") {
    return Temporal.PlainDateTime.from(time.local).toZonedDateTime(time.timeZone).epochMilliseconds;
  }
  return Temporal.PlainDate.from(time.date).toZonedDateTime({ timeZone: calendarZone }).epochMilliseconds;
}

/** RFC 3339 with the zone's offset at that instant, as Google writes `dateTime`. */
export function rfc3339InZone(ms: number, timeZone: string): string {
  const zoned = Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(timeZone);
  return `${zoned.toPlainDateTime().toString({ smallestUnit: "second" })}${zoned.offset}`;
}

/** Graph's `dateTime`: wall time in the given zone with seven fractional digits and no offset. */
export function graphDateTime(ms: number, timeZone: string): string {
  const local = Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(timeZone).toPlainDateTime();
  return `${local.toString({ smallestUnit: "second" })}.0000000`;
}

/** The wall time of an instant in a zone, as a PlainDateTime string. */
export function localIn(ms: number, timeZone: string): string {
  return Temporal.Instant.fromEpochMilliseconds(ms)
    .toZonedDateTimeISO(timeZone)
    .toPlainDateTime()
    .toString({ smallestUnit: "second" });
}

export function isTimeZone(name: string): boolean {
  try {
    Temporal.Now.zonedDateTimeISO(name);
    return true;
  } catch {
    return false;
  }
}

/** Parses an RFC 3339 timestamp that carries an offset or Z; undefined for anything else. */
export function parseRfc3339(text: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i.test(text)) return undefined;
  try {
    return Temporal.Instant.from(text).epochMilliseconds;
  } catch {
    return undefined;
  }
}

export function isPlainDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  try {
    Temporal.PlainDate.from(text, { overflow: "reject" });
    return true;
  } catch {
    return false;
  }
}

export function addDays(date: string, days: number): string {
  return Temporal.PlainDate.from(date).add({ days }).toString();
}

export function daysBetween(from: string, to: string): number {
  return Temporal.PlainDate.from(from).until(Temporal.PlainDate.from(to), { largestUnit: "days" }).days;
}
