import { createHash } from "node:crypto";
import type { CalendarStore, EventInstance, StoredEvent } from "./store.ts";
import { type EventTime, instantOf, rfc3339InZone } from "./time.ts";

function etag(event: StoredEvent): string {
  return `"${createHash("sha1").update(`${event.id}:${event.changeSeq}`).digest("hex").slice(0, 16)}"`;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** Google's start/end: a date, or dateTime with the zone's offset plus the zone's name. */
function googleTime(time: EventTime, store: CalendarStore): Record<string, string> {
  if (time.kind === "date") return { date: time.date };
  return { dateTime: rfc3339InZone(instantOf(time, store.timeZone), time.timeZone), timeZone: time.timeZone };
}

function people(event: StoredEvent, store: CalendarStore) {
  const self = store.owner.email.toLowerCase();
  const organizer = {
    email: event.organizer.email,
    ...(event.organizer.name ? { displayName: event.organizer.name } : {}),
    ...(event.organizer.email.toLowerCase() === self ? { self: true } : {}),
  };
  const attendees = event.attendees.map((attendee) => ({
    email: attendee.email,
    ...(attendee.name ? { displayName: attendee.name } : {}),
    ...(attendee.email === event.organizer.email ? { organizer: true } : {}),
    ...(attendee.email.toLowerCase() === self ? { self: true } : {}),
    responseStatus: attendee.response,
  }));
  return { creator: organizer, organizer, ...(attendees.length > 0 ? { attendees } : {}) };
}

function common(source: StoredEvent, id: string, store: CalendarStore) {
  return {
    kind: "calendar#event",
    etag: etag(source),
    id,
    status: source.status,
    htmlLink: `https://www.google.com/calendar/event?eid=${Buffer.from(`${id} ${store.owner.email}`).toString("base64url")}`,
    created: iso(source.created),
    updated: iso(source.updated),
    summary: source.summary,
    ...(source.description ? { description: source.description } : {}),
    ...(source.location ? { location: source.location } : {}),
    ...people(source, store),
  };
}

/** A removed event as sync reports it: only its id and status. */
export function presentGoogleRemoved(id: string, event: StoredEvent | undefined) {
  return {
    kind: "calendar#event",
    etag: event ? etag(event) : `"${id}"`,
    id,
    status: "cancelled",
    ...(event ? { updated: iso(event.updated) } : {}),
  };
}

/** One instance (singleEvents=true). */
export function presentGoogleInstance(instance: EventInstance, store: CalendarStore) {
  const { source, master } = instance;
  return {
    ...common(source, instance.id, store),
    start: googleTime(instance.start, store),
    end: googleTime(instance.end, store),
    ...(master && instance.originalStart
      ? { recurringEventId: master.id, originalStartTime: googleTime(instance.originalStart, store) }
      : {}),
    iCalUID: source.uid,
    sequence: source.sequence,
    reminders: { useDefault: true },
    eventType: "default",
  };
}

/** A stored event as it is (singleEvents=false): series carry their recurrence. */
export function presentGoogleEvent(event: StoredEvent, store: CalendarStore) {
  return {
    ...common(event, event.id, store),
    start: googleTime(event.start, store),
    end: googleTime(event.end, store),
    ...(event.rrule ? { recurrence: [`RRULE:${event.rrule}`] } : {}),
    ...(event.recurringEventId && event.originalStart
      ? {
          recurringEventId: event.recurringEventId,
          originalStartTime: googleTime(event.originalStart, store),
        }
      : {}),
    iCalUID: event.uid,
    sequence: event.sequence,
    reminders: { useDefault: true },
    eventType: "default",
  };
}
