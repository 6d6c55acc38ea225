import type { CalendarProvider } from "../../../../contract/calendar.ts";

/*
 * Calendar helpers without Temporal, for the parts of the calendar the dashboard loads eagerly
 * (the reader's invitation card); format.ts re-exports them for the lazily loaded panel.
 */

/** The person's own time zone, as the browser knows it. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

export const PROVIDER_NAME: Record<CalendarProvider, string> = {
  google: "Google Calendar",
  outlook: "Outlook Calendar",
};
