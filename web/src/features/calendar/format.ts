import { Temporal } from "temporal-polyfill";
import type { CalendarEvent, CalendarView } from "../../../../contract/calendar.ts";
import type { CalendarWindow } from "../../../../contract/calendar-window.ts";

export { browserTimeZone, PROVIDER_NAME } from "./labels.ts";

const cache = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${timeZone}|${JSON.stringify(options)}`;
  let found = cache.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat(undefined, { ...options, timeZone });
    cache.set(key, found);
  }
  return found;
}

export function formatTime(iso: string, timeZone: string): string {
  return formatter(timeZone, { hour: "numeric", minute: "2-digit" }).format(new Date(iso));
}

/** A plain date (YYYY-MM-DD) in words; formatted at noon UTC so no zone shifts its day. */
export function formatDate(date: string, options: Intl.DateTimeFormatOptions): string {
  return formatter("UTC", options).format(new Date(`${date}T12:00:00Z`));
}

export function hourLabel(hour: number): string {
  return formatter("UTC", { hour: "numeric" }).format(new Date(Date.UTC(2020, 0, 1, hour)));
}

export function viewTitle(view: CalendarView, date: string, window: CalendarWindow): string {
  if (view === "day")
    return formatDate(date, { weekday: "long", day: "numeric", month: "long", year: "numeric" });
  if (view === "month") return formatDate(date, { month: "long", year: "numeric" });
  const first = window.days[0] ?? date;
  const last = window.days[window.days.length - 1] ?? date;
  return `${formatDate(first, { day: "numeric", month: "short" })} – ${formatDate(last, { day: "numeric", month: "short", year: "numeric" })}`;
}

/** "09:30 – 09:45", "All day", or with the day when the event spans midnight. */
export function eventTimeText(event: CalendarEvent, timeZone: string): string {
  if (event.allDay) {
    const last = Temporal.PlainDate.from(event.end).subtract({ days: 1 }).toString();
    return last === event.start
      ? "All day"
      : `All day, ${formatDate(event.start, { day: "numeric", month: "short" })} – ${formatDate(last, { day: "numeric", month: "short" })}`;
  }
  const startDay = Temporal.Instant.from(event.start).toZonedDateTimeISO(timeZone).toPlainDate();
  const endDay = Temporal.Instant.from(event.end).toZonedDateTimeISO(timeZone).toPlainDate();
  const start = formatTime(event.start, timeZone);
  const end = formatTime(event.end, timeZone);
  if (startDay.equals(endDay)) return `${start} – ${end}`;
  return `${formatDate(startDay.toString(), { day: "numeric", month: "short" })} ${start} – ${formatDate(endDay.toString(), { day: "numeric", month: "short" })} ${end}`;
}

/** "10:00 in Tokyo" when the event was planned in another zone than the person's. */
export function plannedZoneText(event: CalendarEvent, timeZone: string): string | null {
  if (event.allDay || !event.timeZone || event.timeZone === timeZone) return null;
  const there = formatter(event.timeZone, { hour: "numeric", minute: "2-digit" }).format(
    new Date(event.start),
  );
  const here = formatter(timeZone, { hour: "numeric", minute: "2-digit" }).format(new Date(event.start));
  if (there === here) return null;
  const city = event.timeZone.split("/").pop()?.replaceAll("_", " ") ?? event.timeZone;
  return `${there} in ${city}`;
}

export const STATUS_TEXT: Record<CalendarEvent["status"], string> = {
  confirmed: "Confirmed",
  tentative: "Tentative",
  cancelled: "Cancelled",
};
