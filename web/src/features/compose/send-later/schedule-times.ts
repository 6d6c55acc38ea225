import {
  SCHEDULE_MAX_AHEAD_MS,
  SEND_AT_PAST_MESSAGE,
  SEND_AT_TOO_FAR_MESSAGE,
} from "../../../../../contract/scheduled.ts";
import { nextMondayAt8, tomorrowAt8 } from "../../../../../contract/time-presets.ts";

/** The person's time zone: the browser's (the one stored with the user follows it, game-api.ts). */
export function personTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

export interface SendPreset {
  label: string;
  /** Its date as shown beside the label ("Mon, Dec 7"). */
  date: string;
  at: Date;
}

/** Issue 37's presets, each shown with its date, in the person's time zone. */
export function sendPresets(now: Date, timeZone = personTimeZone()): SendPreset[] {
  const day = new Intl.DateTimeFormat(undefined, {
    weekday: "short",
    month: "short",
    day: "numeric",
    timeZone,
  });
  const tomorrow = tomorrowAt8(now, timeZone);
  const monday = nextMondayAt8(now, timeZone);
  return [
    { label: "Tomorrow 8 AM", date: day.format(tomorrow), at: tomorrow },
    { label: "Monday 8 AM", date: day.format(monday), at: monday },
  ];
}

/** A datetime-local value (the browser's zone) as an instant, or the message saying why not. */
export function pickedTime(value: string, now: Date): { at: Date } | { error: string } {
  const at = new Date(value);
  if (value === "" || Number.isNaN(at.getTime())) return { error: "Pick a date and time." };
  if (at.getTime() <= now.getTime()) return { error: SEND_AT_PAST_MESSAGE };
  if (at.getTime() > now.getTime() + SCHEDULE_MAX_AHEAD_MS) return { error: SEND_AT_TOO_FAR_MESSAGE };
  return { at };
}

/** "Mon, Dec 7, 8:00 AM" in the person's zone. */
export function formatSendTime(iso: string): string {
  return new Intl.DateTimeFormat(undefined, {
    weekday: "short",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
  }).format(new Date(iso));
}

/** A datetime-local input's value for an instant, in the browser's zone. */
export function toLocalInput(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}
