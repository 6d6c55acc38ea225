import { useId } from "react";
import type { FollowUp } from "../../../../../contract/scheduled.ts";

/** What the select holds: none, a number of days, or a date (its own input). */
export type FollowUpChoice = "" | "1" | "3" | "7" | "date";

/** The request's followUp for the choice; undefined for none (or a date not picked yet). */
export function followUpOf(choice: FollowUpChoice, date: string): FollowUp | undefined {
  if (choice === "") return undefined;
  if (choice === "date") {
    const at = new Date(date);
    return date === "" || Number.isNaN(at.getTime()) ? undefined : { at: at.toISOString() };
  }
  return { days: Number(choice) as 1 | 3 | 7 };
}

/** Compose's "Remind me if no reply in" (issue 37): none by default. */
export function FollowUpSelect({
  choice,
  date,
  onChange,
}: {
  choice: FollowUpChoice;
  date: string;
  onChange: (choice: FollowUpChoice, date: string) => void;
}) {
  const selectId = useId();
  const dateId = useId();
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <label htmlFor={selectId} className="text-slate-700">
        Remind me if no reply in
      </label>
      <select
        id={selectId}
        value={choice}
        onChange={(e) => onChange(e.target.value as FollowUpChoice, date)}
        className="rounded-lg border border-slate-300 bg-white px-2 py-1 text-sm"
      >
        <option value="">No reminder</option>
        <option value="1">1 day</option>
        <option value="3">3 days</option>
        <option value="7">7 days</option>
        <option value="date">On a date…</option>
      </select>
      {choice === "date" ? (
        <>
          <label htmlFor={dateId} className="sr-only">
            Reminder date and time
          </label>
          <input
            id={dateId}
            type="datetime-local"
            value={date}
            onChange={(e) => onChange(choice, e.target.value)}
            className="rounded-lg border border-slate-300 px-2 py-1 text-sm"
          />
        </>
      ) : null}
    </div>
  );
}
