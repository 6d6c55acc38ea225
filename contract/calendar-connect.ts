/**
 * Why connecting a calendar failed. The connect flow sends the person back to
 * /dashboard?calendar=error&code=<code>, and the dashboard shows the code's fixed text: a link
 * anyone can craft must not put words of its own in front of the person (issue 34.2). No zod here,
 * so the dashboard's bundle does not carry it for these texts.
 */
export const CALENDAR_CONNECT_FAILURES = {
  failed: "The calendar could not be connected. Please try again.",
  cancelled: "Calendar access was not granted.",
  other_account: "Please choose the same account as the mailbox whose calendar you are connecting.",
  no_account: "Connect that mailbox first, then its calendar.",
} as const;

export type CalendarConnectFailure = keyof typeof CALENDAR_CONNECT_FAILURES;

/** The fixed text of a code from the address bar; anything unknown reads as the general failure. */
export function calendarConnectFailureText(code: string | null): string {
  return Object.hasOwn(CALENDAR_CONNECT_FAILURES, code ?? "")
    ? CALENDAR_CONNECT_FAILURES[code as CalendarConnectFailure]
    : CALENDAR_CONNECT_FAILURES.failed;
}
