import { z } from "zod";
import type { CalendarAttendee } from "../../contract/calendar.ts";
import { classifyGmailError } from "../providers/gmail/errors.ts";
import type { ProviderHttp, ProviderResponse } from "../providers/http/client.ts";
import { ProviderRequestError } from "../providers/http/errors.ts";
import { changesOf, readCursorPage } from "./cursor-pages.ts";
import {
  type CalendarChanges,
  type CalendarProviderClient,
  knownZone,
  type NewProviderEvent,
  type ProviderEvent,
  type ProviderTime,
  type SyncWindow,
} from "./provider.ts";

/** Google's error bodies and reasons are the same across its APIs; only the name differs. */
export function classifyGoogleCalendarError(response: ProviderResponse): ProviderRequestError {
  const failure = classifyGmailError(response);
  return new ProviderRequestError(failure.kind, failure.message.replace("Gmail", "Google Calendar"), {
    ...(failure.status === undefined ? {} : { status: failure.status }),
    ...(failure.reason === undefined ? {} : { reason: failure.reason }),
    ...(failure.retryAfterMs === undefined ? {} : { retryAfterMs: failure.retryAfterMs }),
  });
}

const timeSchema = z.object({
  date: z.string().optional(),
  dateTime: z.string().optional(),
  timeZone: z.string().optional(),
});

const eventSchema = z.object({
  id: z.string(),
  status: z.string().optional(),
  summary: z.string().optional(),
  location: z.string().optional(),
  htmlLink: z.string().optional(),
  recurringEventId: z.string().optional(),
  start: timeSchema.optional(),
  end: timeSchema.optional(),
  organizer: z.object({ email: z.string().optional() }).optional(),
  attendees: z
    .array(
      z.object({
        email: z.string().optional(),
        displayName: z.string().optional(),
        responseStatus: z.string().optional(),
      }),
    )
    .optional(),
});
type GoogleEvent = z.infer<typeof eventSchema>;

const listSchema = z.object({
  items: z.array(z.unknown()).default([]),
  nextPageToken: z.string().optional(),
  nextSyncToken: z.string().optional(),
});

const calendarListSchema = z.object({
  items: z
    .array(
      z.object({
        id: z.string(),
        summary: z.string().optional(),
        timeZone: z.string().optional(),
        primary: z.boolean().optional(),
      }),
    )
    .default([]),
});

function time(value: z.infer<typeof timeSchema> | undefined): ProviderTime | undefined {
  if (value?.date) return { kind: "date", date: value.date };
  if (value?.dateTime) {
    const at = new Date(value.dateTime);
    if (Number.isNaN(at.getTime())) return undefined;
    return { kind: "timed", at, timeZone: knownZone(value.timeZone) };
  }
  return undefined;
}

const RESPONSES = new Set(["accepted", "declined", "tentative", "needsAction"]);

/** Google event -> ours; undefined for a removal (a cancelled event without times). */
export function mapGoogleEvent(raw: GoogleEvent): ProviderEvent | undefined {
  const start = time(raw.start);
  const end = time(raw.end);
  if (start === undefined || end === undefined) return undefined;
  const status =
    raw.status === "cancelled" ? "cancelled" : raw.status === "tentative" ? "tentative" : "confirmed";
  const attendees: CalendarAttendee[] = (raw.attendees ?? []).flatMap((a) =>
    a.email
      ? [
          {
            email: a.email,
            name: a.displayName ?? null,
            responseStatus: (RESPONSES.has(a.responseStatus ?? "")
              ? a.responseStatus
              : "needsAction") as CalendarAttendee["responseStatus"],
          },
        ]
      : [],
  );
  return {
    providerId: raw.id,
    seriesId: raw.recurringEventId ?? null,
    title: raw.summary ?? "(No title)",
    location: raw.location || null,
    start,
    end,
    status,
    organizer: raw.organizer?.email ?? null,
    attendees,
    htmlLink: raw.htmlLink ?? null,
  };
}

function googleTime(value: ProviderTime, timeZone: string): Record<string, string> {
  if (value.kind === "date") return { date: value.date };
  return { dateTime: value.at.toISOString(), timeZone };
}

/** Google Calendar v3 (www.googleapis.com/calendar/v3) behind our calendar interface. */
export function createGoogleCalendarClient(http: ProviderHttp, apiBase: string): CalendarProviderClient {
  const base = `${apiBase}/calendar/v3`;
  const events = (calendarId: string) => `${base}/calendars/${encodeURIComponent(calendarId)}/events`;

  /** Every page of one listing; the last carries the sync token. */
  async function listAll(url: URL): Promise<{ items: GoogleEvent[]; syncToken: string | undefined }> {
    const items: GoogleEvent[] = [];
    for (let pageToken: string | undefined, pages = 0; pages < 1000; pages += 1) {
      if (pageToken) url.searchParams.set("pageToken", pageToken);
      const body = listSchema.parse(
        await readCursorPage(http, { method: "GET", url: url.href }, "Google says the sync token expired"),
      );
      for (const item of body.items) {
        const parsed = eventSchema.safeParse(item);
        if (parsed.success) items.push(parsed.data);
      }
      if (!body.nextPageToken) return { items, syncToken: body.nextSyncToken };
      pageToken = body.nextPageToken;
    }
    throw new ProviderRequestError("transient", "Google Calendar kept paging past 1000 pages");
  }

  const mapAll = (items: GoogleEvent[]) => items.flatMap((item) => mapGoogleEvent(item) ?? []);

  return {
    provider: "google",

    async primaryCalendar() {
      const body = calendarListSchema.parse(
        await http.json<unknown>({
          method: "GET",
          url: `${base}/users/me/calendarList?minAccessRole=reader`,
        }),
      );
      const primary = body.items.find((c) => c.primary) ?? body.items[0];
      if (!primary) throw new ProviderRequestError("permanent", "Google lists no calendar for this account");
      return { id: primary.id, name: primary.summary ?? primary.id, timeZone: knownZone(primary.timeZone) };
    },

    async fullSync(calendarId, window: SyncWindow) {
      const url = new URL(events(calendarId));
      url.searchParams.set("singleEvents", "true");
      url.searchParams.set("showDeleted", "true");
      url.searchParams.set("maxResults", "2500");
      url.searchParams.set("timeMin", window.start.toISOString());
      url.searchParams.set("timeMax", window.end.toISOString());
      const { items, syncToken } = await listAll(url);
      if (!syncToken) throw new ProviderRequestError("transient", "Google sent no sync token");
      return { events: mapAll(items), cursor: syncToken };
    },

    async changes(calendarId, cursor): Promise<CalendarChanges> {
      const url = new URL(events(calendarId));
      url.searchParams.set("singleEvents", "true");
      url.searchParams.set("showDeleted", "true");
      url.searchParams.set("maxResults", "2500");
      url.searchParams.set("syncToken", cursor);
      const { items, syncToken } = await listAll(url);
      if (!syncToken) throw new ProviderRequestError("transient", "Google sent no sync token");
      return changesOf(items, mapGoogleEvent, syncToken);
    },

    async listRange(calendarId, window) {
      const url = new URL(events(calendarId));
      url.searchParams.set("singleEvents", "true");
      url.searchParams.set("orderBy", "startTime");
      // Cancelled occurrences too, as the stored (synced) range has them.
      url.searchParams.set("showDeleted", "true");
      url.searchParams.set("maxResults", "2500");
      url.searchParams.set("timeMin", window.start.toISOString());
      url.searchParams.set("timeMax", window.end.toISOString());
      return mapAll((await listAll(url)).items);
    },

    async create(calendarId, input: NewProviderEvent) {
      const body = {
        summary: input.title,
        ...(input.location ? { location: input.location } : {}),
        ...(input.description ? { description: input.description } : {}),
        start: googleTime(input.start, input.timeZone),
        end: googleTime(input.end, input.timeZone),
        ...(input.attendees.length > 0 ? { attendees: input.attendees.map((email) => ({ email })) } : {}),
      };
      // Without sendUpdates Google tells no guest: the invitation would never reach them.
      const created = eventSchema.parse(
        await http.json<unknown>({ method: "POST", url: `${events(calendarId)}?sendUpdates=all`, body }),
      );
      const mapped = mapGoogleEvent(created);
      if (!mapped) throw new ProviderRequestError("permanent", "Google answered an event without times");
      return mapped;
    },

    async findByUid(calendarId, uid) {
      const url = new URL(events(calendarId));
      url.searchParams.set("iCalUID", uid);
      url.searchParams.set("showDeleted", "false");
      const body = listSchema.parse(await http.json<unknown>({ method: "GET", url: url.href }));
      for (const item of body.items) {
        const parsed = eventSchema.safeParse(item);
        if (parsed.success && parsed.data.status !== "cancelled") return parsed.data.id;
      }
      return null;
    },

    async respond(calendarId, eventId, self, answer) {
      const url = `${events(calendarId)}/${encodeURIComponent(eventId)}`;
      // A patch replaces the attendee list: send it back whole, only our answer changed.
      const current = attendeeListSchema.parse(await http.json<unknown>({ method: "GET", url }));
      const me = self.toLowerCase();
      const attendees = current.attendees ?? [];
      if (!attendees.some((a) => a.email?.toLowerCase() === me))
        throw new ProviderRequestError("permanent", "the calendar's owner is not a guest of this event");
      await http.json<unknown>({
        method: "PATCH",
        url: `${url}?sendUpdates=all`,
        body: {
          attendees: attendees.map((a) =>
            a.email?.toLowerCase() === me ? { ...a, responseStatus: answer } : a,
          ),
        },
      });
    },
  };
}

/** An event's attendees with every field Google gave, so a patch keeps what it does not change. */
const attendeeListSchema = z.object({
  attendees: z.array(z.object({ email: z.string().optional() }).passthrough()).optional(),
});
