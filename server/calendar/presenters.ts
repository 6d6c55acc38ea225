import type { CalendarAttendee, CalendarEvent, CalendarProvider } from "../../contract/calendar.ts";
import type { CalendarEventRow } from "./event-store.ts";

interface Owner {
  provider: CalendarProvider;
  email: string;
}

/** The fields of a stored event that leave the server (house style 3). */
export function presentCalendarEvent(row: CalendarEventRow, owner: Owner): CalendarEvent {
  const allDay = row.allDay;
  const attendees: CalendarAttendee[] = row.attendees.map((a) => ({
    email: a.email,
    name: a.name,
    responseStatus: (["accepted", "declined", "tentative"].includes(a.responseStatus)
      ? a.responseStatus
      : "needsAction") as CalendarAttendee["responseStatus"],
  }));
  return {
    id: row.id,
    title: row.title,
    start: allDay ? (row.startDate ?? "") : (row.startAt?.toISOString() ?? ""),
    end: allDay ? (row.endDate ?? "") : (row.endAt?.toISOString() ?? ""),
    allDay,
    timeZone: allDay ? null : row.timeZone,
    location: row.location,
    attendees,
    organizer: row.organizer,
    status: row.status === "cancelled" ? "cancelled" : row.status === "tentative" ? "tentative" : "confirmed",
    provider: owner.provider,
    calendarEmail: owner.email,
    integrationId: row.integrationId,
    recurring: row.seriesId !== null,
    htmlLink: row.htmlLink,
  };
}
