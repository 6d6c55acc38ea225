import { useEffect, useRef } from "react";
import type { CalendarEvent } from "../../../../contract/calendar.ts";
import { EventChip } from "./event-chip.tsx";
import { formatDate, hourLabel } from "./format.ts";
import { allDayOn, layoutDay, nowIn, segmentsForDay } from "./layout.ts";

/** Height of one hour row in pixels (spec section 9: the day view has 24 hourly rows). */
const HOUR_PX = 48;
const HOURS = Array.from({ length: 24 }, (_, hour) => hour);

interface Props {
  days: string[];
  events: CalendarEvent[];
  timeZone: string;
  nowMs: number;
  onOpenEvent: (event: CalendarEvent) => void;
  onOpenDay?: (date: string) => void;
}

/**
 * The day and week views: an all-day row, then 24 hourly rows with the events placed by their
 * local wall-clock time, overlapping ones side by side, and a line at the current time.
 */
export function TimeGrid({ days, events, timeZone, nowMs, onOpenEvent, onOpenDay }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const now = nowIn(timeZone, nowMs);
  const showsToday = days.includes(now.date);
  const multi = days.length > 1;

  // Open on the working day (or an hour before now), not at midnight.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the shown days change
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const hour = showsToday ? Math.max(0, Math.floor(now.minutes / 60) - 1) : 8;
    el.scrollTop = hour * HOUR_PX;
  }, [days.join(",")]);

  const columns = `3rem repeat(${days.length}, minmax(${multi ? "5.5rem" : "0"}, 1fr))`;
  const hasAllDay = days.some((day) => allDayOn(events, day).length > 0);

  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200">
      <div style={{ minWidth: multi ? `${3 + days.length * 5.5}rem` : undefined }}>
        <div className="grid border-b border-slate-200 bg-slate-50" style={{ gridTemplateColumns: columns }}>
          <div />
          {days.map((day) => {
            const label = formatDate(day, { weekday: "short", day: "numeric" });
            const full = formatDate(day, { weekday: "long", day: "numeric", month: "long" });
            const today = day === now.date;
            return (
              <div key={day} className="border-l border-slate-200 px-1 py-1 text-center text-xs">
                {multi && onOpenDay ? (
                  <button
                    type="button"
                    onClick={() => onOpenDay(day)}
                    aria-label={`${full}${today ? ", today" : ""}: show the day`}
                    className={`rounded px-1 font-medium hover:bg-slate-200 focus-visible:outline-2 focus-visible:outline-brand-600 ${today ? "bg-brand-600 text-white hover:bg-brand-700" : "text-slate-700"}`}
                  >
                    {label}
                  </button>
                ) : (
                  <span className={`font-medium ${today ? "text-brand-700" : "text-slate-700"}`}>{full}</span>
                )}
              </div>
            );
          })}
        </div>
        {hasAllDay ? (
          <div
            className="grid border-b border-slate-200"
            style={{ gridTemplateColumns: columns }}
            data-testid="all-day-row"
          >
            <div className="px-1 py-1 text-right text-[0.65rem] leading-tight text-slate-600">All day</div>
            {days.map((day) => (
              <ul
                key={day}
                aria-label={`All-day events, ${formatDate(day, { weekday: "long", day: "numeric", month: "long" })}`}
                className="min-w-0 space-y-0.5 border-l border-slate-200 p-0.5"
              >
                {allDayOn(events, day).map((event) => (
                  <li key={event.id}>
                    <EventChip event={event} timeZone={timeZone} onOpen={onOpenEvent} compact />
                  </li>
                ))}
              </ul>
            ))}
          </div>
        ) : null}
        <div ref={scroller} className="max-h-[26rem] overflow-y-auto" data-testid="time-grid-scroll">
          <div className="relative grid" style={{ gridTemplateColumns: columns, height: 24 * HOUR_PX }}>
            <div aria-hidden="true" className="relative">
              {HOURS.map((hour) => (
                <div
                  key={hour}
                  className="absolute right-1 -translate-y-1/2 text-[0.65rem] text-slate-600"
                  style={{ top: hour * HOUR_PX }}
                  data-testid="hour-row"
                >
                  {hour === 0 ? "" : hourLabel(hour)}
                </div>
              ))}
            </div>
            {days.map((day) => {
              const placed = layoutDay(segmentsForDay(events, day, timeZone));
              return (
                <section
                  key={day}
                  aria-label={formatDate(day, {
                    weekday: "long",
                    day: "numeric",
                    month: "long",
                    year: "numeric",
                  })}
                  className="relative border-l border-slate-200"
                  data-date={day}
                >
                  {HOURS.map((hour) => (
                    <div
                      key={hour}
                      aria-hidden="true"
                      className="absolute inset-x-0 border-t border-slate-100"
                      style={{ top: hour * HOUR_PX }}
                    />
                  ))}
                  <ul
                    aria-label={`Events, ${formatDate(day, { weekday: "long", day: "numeric", month: "long" })}`}
                  >
                    {placed.map((item) => {
                      const height = Math.max(((item.endMin - item.startMin) / 60) * HOUR_PX, 20);
                      return (
                        <li
                          key={item.event.id}
                          className="absolute px-px"
                          style={{
                            top: (item.startMin / 60) * HOUR_PX,
                            height,
                            left: `${(item.column / item.columns) * 100}%`,
                            width: `${100 / item.columns}%`,
                          }}
                          data-column={item.column}
                          data-columns={item.columns}
                        >
                          <EventChip
                            event={item.event}
                            timeZone={timeZone}
                            onOpen={onOpenEvent}
                            fill
                            short={height < 40}
                          />
                        </li>
                      );
                    })}
                  </ul>
                  {day === now.date ? (
                    <div
                      aria-hidden="true"
                      data-testid="now-line"
                      className="pointer-events-none absolute inset-x-0 z-10 border-t-2 border-rose-500"
                      style={{ top: (now.minutes / 60) * HOUR_PX }}
                    >
                      <span className="absolute -top-1.5 -left-1.5 size-3 rounded-full bg-rose-500" />
                    </div>
                  ) : null}
                </section>
              );
            })}
          </div>
        </div>
      </div>
    </div>
  );
}
