import type {
  CalendarAttendee,
  CalendarEventStatus,
  CalendarProvider,
  InvitationAnswer,
} from "../../contract/calendar.ts";

/** When an event happens: an instant (with the zone it was planned in), or an all-day date. */
export type ProviderTime =
  | { kind: "timed"; at: Date; timeZone: string | null }
  | { kind: "date"; date: string };

/** One event occurrence in our terms, whichever provider it came from. */
export interface ProviderEvent {
  providerId: string;
  /** The series of an occurrence (Google recurringEventId, Graph seriesMasterId). */
  seriesId: string | null;
  title: string;
  location: string | null;
  start: ProviderTime;
  end: ProviderTime;
  status: CalendarEventStatus;
  organizer: string | null;
  attendees: CalendarAttendee[];
  htmlLink: string | null;
}

export interface SyncWindow {
  start: Date;
  end: Date;
}

export interface CalendarInfo {
  id: string;
  name: string;
  timeZone: string | null;
}

export interface CalendarChanges {
  upserts: ProviderEvent[];
  /** Ids of removed events or series (a series' occurrences go with it). */
  removedIds: string[];
  cursor: string;
}

export interface NewProviderEvent {
  title: string;
  start: ProviderTime;
  end: ProviderTime;
  /** The zone timed events are written in (the person's). */
  timeZone: string;
  location: string | undefined;
  description: string | undefined;
  attendees: string[];
}

/** The provider's sync state is gone (Google 410, Graph 410 SyncStateNotFound): sync in full. */
export class CalendarCursorExpiredError extends Error {
  override name = "CalendarCursorExpiredError";
}

/**
 * A calendar provider in our terms (house style 6): the primary calendar, a windowed full sync
 * that ends in a cursor, the changes since a cursor, a live read of any range, and creating an
 * event. One contract suite runs against both adapters.
 */
export interface CalendarProviderClient {
  readonly provider: CalendarProvider;
  primaryCalendar(): Promise<CalendarInfo>;
  fullSync(calendarId: string, window: SyncWindow): Promise<{ events: ProviderEvent[]; cursor: string }>;
  /** Throws CalendarCursorExpiredError when the provider no longer knows the cursor. */
  changes(calendarId: string, cursor: string): Promise<CalendarChanges>;
  listRange(calendarId: string, window: SyncWindow): Promise<ProviderEvent[]>;
  create(calendarId: string, event: NewProviderEvent): Promise<ProviderEvent>;
  /** The provider's id of the event (a series itself) carrying this iCalendar UID, or null. */
  findByUid(calendarId: string, uid: string): Promise<string | null>;
  /**
   * Records the calendar owner's answer on their copy of an invitation; the provider tells the
   * organizer (Google sendUpdates=all, Graph sendResponse).
   */
  respond(calendarId: string, eventId: string, self: string, answer: InvitationAnswer): Promise<void>;
}

/** A zone name we can compute with, or null (Graph may answer Windows zone names). */
export function knownZone(name: unknown): string | null {
  if (typeof name !== "string" || name === "") return null;
  try {
    new Intl.DateTimeFormat("en", { timeZone: name });
    return name;
  } catch {
    return null;
  }
}
