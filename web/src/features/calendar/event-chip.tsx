import type { CalendarEvent } from "../../../../contract/calendar.ts";
import { eventTimeText, formatTime } from "./format.ts";

/** What a screen reader hears for an event: title, time, place, and any unusual status. */
export function eventLabel(event: CalendarEvent, timeZone: string): string {
  const parts = [event.title, eventTimeText(event, timeZone)];
  if (event.location) parts.push(event.location);
  if (event.status !== "confirmed") parts.push(event.status === "cancelled" ? "cancelled" : "tentative");
  return parts.join(", ");
}

const PROVIDER_STYLE: Record<CalendarEvent["provider"], string> = {
  google: "border-sky-600 bg-sky-50 text-sky-950 hover:bg-sky-100",
  outlook: "border-indigo-600 bg-indigo-50 text-indigo-950 hover:bg-indigo-100",
};

interface Props {
  event: CalendarEvent;
  timeZone: string;
  onOpen: (event: CalendarEvent) => void;
  /** Fill the positioned box of the time grid. */
  fill?: boolean;
  /** One line: all-day row and month cells. */
  compact?: boolean;
  /** Too short a box for a second line (a 15-minute meeting). */
  short?: boolean;
}

/** One event as a button: colour by calendar, dashed when tentative, struck through when cancelled. */
export function EventChip({ event, timeZone, onOpen, fill, compact, short }: Props) {
  const cancelled = event.status === "cancelled";
  const tentative = event.status === "tentative";
  return (
    <button
      type="button"
      onClick={() => onOpen(event)}
      aria-label={eventLabel(event, timeZone)}
      data-event-id={event.id}
      data-status={event.status}
      className={`block w-full overflow-hidden rounded border-l-4 px-1 text-left text-[0.7rem] leading-tight focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600 ${PROVIDER_STYLE[event.provider]} ${fill ? "h-full py-0.5" : "py-0.5"} ${tentative ? "border-dashed" : ""}`}
    >
      <span className={`block truncate font-medium ${cancelled ? "line-through" : ""}`}>
        {/* On a phone the month cell is too narrow for both: the title wins. */}
        {!compact || event.allDay ? null : (
          <span className="hidden sm:inline">{`${formatTime(event.start, timeZone)} `}</span>
        )}
        {event.title}
      </span>
      {fill && !compact && !short ? (
        <span className="block truncate text-slate-700">
          {formatTime(event.start, timeZone)}
          {event.location ? ` · ${event.location}` : ""}
        </span>
      ) : null}
    </button>
  );
}
