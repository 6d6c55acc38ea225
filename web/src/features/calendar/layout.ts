import { Temporal } from "temporal-polyfill";
import type { CalendarEvent } from "../../../../contract/calendar.ts";

export const MINUTES_PER_DAY = 24 * 60;

/** The part of a timed event that falls on one local day, in wall-clock minutes from midnight. */
export interface DaySegment {
  event: CalendarEvent;
  startMin: number;
  endMin: number;
  /** The event began on an earlier day / goes on past midnight. */
  continuesBefore: boolean;
  continuesAfter: boolean;
}

export interface PlacedSegment extends DaySegment {
  /** Overlapping events sit side by side: this one's column and how many share the cluster. */
  column: number;
  columns: number;
}

function wallMinutes(zoned: Temporal.ZonedDateTime): number {
  return zoned.hour * 60 + zoned.minute;
}

/**
 * Timed events on `date` as the person sees it in `timeZone`. Positions use wall-clock time, so a
 * 09:30 meeting sits on the 09:30 line on the day clocks change too.
 */
export function segmentsForDay(
  events: readonly CalendarEvent[],
  date: string,
  timeZone: string,
): DaySegment[] {
  const day = Temporal.PlainDate.from(date);
  const dayStart = day.toZonedDateTime({ timeZone }).epochMilliseconds;
  const dayEnd = day.add({ days: 1 }).toZonedDateTime({ timeZone }).epochMilliseconds;
  const out: DaySegment[] = [];
  for (const event of events) {
    if (event.allDay) continue;
    const start = Date.parse(event.start);
    const end = Date.parse(event.end);
    if (!(start < dayEnd && end > dayStart)) continue;
    const continuesBefore = start < dayStart;
    const continuesAfter = end > dayEnd;
    const startMin = continuesBefore
      ? 0
      : wallMinutes(Temporal.Instant.fromEpochMilliseconds(start).toZonedDateTimeISO(timeZone));
    const endMin = continuesAfter
      ? MINUTES_PER_DAY
      : Math.max(
          startMin,
          wallMinutes(Temporal.Instant.fromEpochMilliseconds(end).toZonedDateTimeISO(timeZone)) ||
            MINUTES_PER_DAY,
        );
    out.push({ event, startMin, endMin, continuesBefore, continuesAfter });
  }
  return out;
}

/**
 * Side-by-side layout: events that overlap (directly or through a chain) form a cluster; each
 * takes the first column free at its start, and every event of the cluster shares its width.
 */
export function layoutDay(segments: readonly DaySegment[]): PlacedSegment[] {
  const sorted = [...segments].sort(
    (a, b) => a.startMin - b.startMin || b.endMin - a.endMin || a.event.id.localeCompare(b.event.id),
  );
  const placed: PlacedSegment[] = [];
  let cluster: PlacedSegment[] = [];
  let columnEnds: number[] = [];
  let clusterEnd = -1;
  const close = () => {
    for (const item of cluster) item.columns = columnEnds.length;
    cluster = [];
    columnEnds = [];
  };
  for (const segment of sorted) {
    // Zero-length events still take a sliver of time, so they do not vanish under neighbours.
    const end = Math.max(segment.endMin, segment.startMin + 15);
    if (segment.startMin >= clusterEnd) close();
    let column = columnEnds.findIndex((columnEnd) => columnEnd <= segment.startMin);
    if (column < 0) {
      column = columnEnds.length;
      columnEnds.push(end);
    } else columnEnds[column] = end;
    const item: PlacedSegment = { ...segment, column, columns: 1 };
    cluster.push(item);
    placed.push(item);
    clusterEnd = Math.max(clusterEnd, end);
  }
  close();
  return placed;
}

/** All-day events covering `date` (their end date is exclusive). */
export function allDayOn(events: readonly CalendarEvent[], date: string): CalendarEvent[] {
  return events.filter((event) => event.allDay && event.start <= date && event.end > date);
}

/** Every event touching `date`: all-day ones first, then timed ones by start. */
export function eventsOn(events: readonly CalendarEvent[], date: string, timeZone: string): CalendarEvent[] {
  const timed = segmentsForDay(events, date, timeZone)
    .sort((a, b) => a.startMin - b.startMin)
    .map((segment) => segment.event);
  return [...allDayOn(events, date), ...timed];
}

/** Wall-clock minutes of `nowMs` in the zone, and the local date it falls on. */
export function nowIn(timeZone: string, nowMs: number): { date: string; minutes: number } {
  const zoned = Temporal.Instant.fromEpochMilliseconds(nowMs).toZonedDateTimeISO(timeZone);
  return { date: zoned.toPlainDate().toString(), minutes: wallMinutes(zoned) };
}
