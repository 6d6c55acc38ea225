import { SNOOZE_MAX_DAYS } from "../../../../contract/snooze.ts";
import { laterToday, nextMondayAt8, thisWeekendAt8, tomorrowAt8 } from "../../../../contract/time-presets.ts";

/** The menu's presets, texts exactly as issue 37 names them, each computed in the person's zone. */
export const SNOOZE_PRESETS = [
  { label: "Later today", at: laterToday },
  { label: "Tomorrow", at: tomorrowAt8 },
  { label: "This weekend", at: thisWeekendAt8 },
  { label: "Next week", at: nextMondayAt8 },
] as const;

const DAY_MS = 24 * 60 * 60 * 1000;

/** What is wrong with a picked time, in words, or null when it can be a snooze's end. */
export function pickedTimeProblem(value: string, now: Date): string | null {
  if (value.trim() === "") return "Pick a date and time.";
  // A datetime-local value ("2026-12-07T08:00") is the browser's local wall time.
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return "That is not a date and time.";
  if (at.getTime() <= now.getTime() + 30_000) return "Pick a time in the future.";
  if (at.getTime() > now.getTime() + SNOOZE_MAX_DAYS * DAY_MS) return "Pick a time within a year.";
  return null;
}

/** "Mon 8:00 AM" in the person's zone; with the date when it is more than a week away. */
export function formatWake(at: Date, timeZone: string, now = new Date()): string {
  const far = at.getTime() - now.getTime() > 6 * DAY_MS;
  return new Intl.DateTimeFormat(undefined, {
    timeZone,
    weekday: "short",
    ...(far ? { month: "short", day: "numeric" } : {}),
    hour: "numeric",
    minute: "2-digit",
  }).format(at);
}

/** A datetime-local input's value for `at` in the browser's zone ("2026-12-07T08:00"). */
export function localInputValue(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}
