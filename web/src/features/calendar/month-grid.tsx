import type { CalendarEvent } from "../../../../contract/calendar.ts";
import { EventChip } from "./event-chip.tsx";
import { formatDate } from "./format.ts";
import { eventsOn, nowIn } from "./layout.ts";

const SHOWN_PER_DAY = 3;

interface Props {
  /** The whole weeks shown (a multiple of 7, Monday first). */
  days: string[];
  /** The month's YYYY-MM, to grey out the neighbouring months' days. */
  month: string;
  events: CalendarEvent[];
  timeZone: string;
  nowMs: number;
  onOpenEvent: (event: CalendarEvent) => void;
  onOpenDay: (date: string) => void;
}

/** The month view: whole weeks, up to three events a day and a link to the rest. */
export function MonthGrid({ days, month, events, timeZone, nowMs, onOpenEvent, onOpenDay }: Props) {
  const today = nowIn(timeZone, nowMs).date;
  const weeks: string[][] = [];
  for (let i = 0; i < days.length; i += 7) weeks.push(days.slice(i, i + 7));
  return (
    <table className="w-full table-fixed border-collapse text-xs">
      <caption className="sr-only">{formatDate(`${month}-01`, { month: "long", year: "numeric" })}</caption>
      <thead>
        <tr>
          {(weeks[0] ?? []).map((day) => (
            <th key={day} scope="col" className="py-1 font-medium text-slate-600">
              <abbr title={formatDate(day, { weekday: "long" })} className="no-underline">
                {formatDate(day, { weekday: "short" })}
              </abbr>
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {weeks.map((week) => (
          <tr key={week[0]}>
            {week.map((day) => {
              const list = eventsOn(events, day, timeZone);
              const inMonth = day.startsWith(month);
              const full = formatDate(day, { weekday: "long", day: "numeric", month: "long" });
              return (
                <td
                  key={day}
                  className={`h-20 border border-slate-200 p-0.5 align-top ${inMonth ? "bg-white" : "bg-slate-50"}`}
                  data-date={day}
                >
                  <button
                    type="button"
                    onClick={() => onOpenDay(day)}
                    aria-label={`${full}${day === today ? ", today" : ""}: ${list.length === 0 ? "no events" : `${list.length} event${list.length === 1 ? "" : "s"}`}, show the day`}
                    className={`mb-0.5 rounded px-1 font-medium hover:bg-slate-200 focus-visible:outline-2 focus-visible:outline-brand-600 ${day === today ? "bg-brand-600 text-white hover:bg-brand-700" : inMonth ? "text-slate-800" : "text-slate-600"}`}
                  >
                    {Number(day.slice(8, 10))}
                  </button>
                  <ul className="space-y-0.5">
                    {list.slice(0, SHOWN_PER_DAY).map((event) => (
                      <li key={event.id}>
                        <EventChip event={event} timeZone={timeZone} onOpen={onOpenEvent} compact />
                      </li>
                    ))}
                  </ul>
                  {list.length > SHOWN_PER_DAY ? (
                    <button
                      type="button"
                      onClick={() => onOpenDay(day)}
                      className="mt-0.5 rounded px-1 text-[0.7rem] text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
                    >
                      +{list.length - SHOWN_PER_DAY} more
                    </button>
                  ) : null}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
