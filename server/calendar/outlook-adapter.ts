import { Temporal } from "temporal-polyfill";
import { z } from "zod";
import type { CalendarAttendee } from "../../contract/calendar.ts";
import type { ProviderHttp } from "../providers/http/client.ts";
import { ProviderRequestError } from "../providers/http/errors.ts";
import { changesOf, readCursorPage } from "./cursor-pages.ts";
import {
  type CalendarChanges,
  type CalendarProviderClient,
  knownZone,
  type NewProviderEvent,
  type ProviderEvent,
  type ProviderTime,
} from "./provider.ts";

const eventSchema = z.object({
  id: z.string(),
  subject: z.string().nullish(),
  isAllDay: z.boolean().nullish(),
  isCancelled: z.boolean().nullish(),
  showAs: z.string().nullish(),
  seriesMasterId: z.string().nullish(),
  webLink: z.string().nullish(),
  originalStartTimeZone: z.string().nullish(),
  start: z.object({ dateTime: z.string(), timeZone: z.string().nullish() }).nullish(),
  end: z.object({ dateTime: z.string(), timeZone: z.string().nullish() }).nullish(),
  location: z.object({ displayName: z.string().nullish() }).nullish(),
  responseStatus: z.object({ response: z.string().nullish() }).nullish(),
  organizer: z.object({ emailAddress: z.object({ address: z.string().nullish() }).nullish() }).nullish(),
  attendees: z
    .array(
      z.object({
        emailAddress: z.object({ address: z.string().nullish(), name: z.string().nullish() }).nullish(),
        status: z.object({ response: z.string().nullish() }).nullish(),
      }),
    )
    .nullish(),
  "@removed": z.object({ reason: z.string().optional() }).optional(),
});
type GraphEvent = z.infer<typeof eventSchema>;

const pageSchema = z.object({
  value: z.array(z.unknown()).default([]),
  "@odata.nextLink": z.string().optional(),
  "@odata.deltaLink": z.string().optional(),
});

const RESPONSES: Record<string, CalendarAttendee["responseStatus"]> = {
  accepted: "accepted",
  organizer: "accepted",
  tentativelyAccepted: "tentative",
  declined: "declined",
};

/** Graph writes wall times without an offset in the zone named beside them (we ask for UTC). */
function instant(value: { dateTime: string; timeZone?: string | null | undefined }): Date | undefined {
  try {
    const zone = knownZone(value.timeZone) ?? "UTC";
    const local = Temporal.PlainDateTime.from(value.dateTime.replace(/(\.\d{3})\d*$/, "$1"));
    return new Date(local.toZonedDateTime(zone).epochMilliseconds);
  } catch {
    return undefined;
  }
}

/** Graph event -> ours. */
export function mapGraphEvent(raw: GraphEvent): ProviderEvent | undefined {
  if (!raw.start || !raw.end) return undefined;
  let start: ProviderTime;
  let end: ProviderTime;
  if (raw.isAllDay) {
    start = { kind: "date", date: raw.start.dateTime.slice(0, 10) };
    end = { kind: "date", date: raw.end.dateTime.slice(0, 10) };
  } else {
    const startAt = instant(raw.start);
    const endAt = instant(raw.end);
    if (!startAt || !endAt) return undefined;
    const zone = knownZone(raw.originalStartTimeZone);
    start = { kind: "timed", at: startAt, timeZone: zone };
    end = { kind: "timed", at: endAt, timeZone: zone };
  }
  const tentative = raw.responseStatus?.response === "tentativelyAccepted" || raw.showAs === "tentative";
  const organizer = raw.organizer?.emailAddress?.address ?? null;
  const attendees: CalendarAttendee[] = [];
  if (organizer) attendees.push({ email: organizer, name: null, responseStatus: "accepted" });
  for (const a of raw.attendees ?? []) {
    const email = a.emailAddress?.address;
    if (!email || email === organizer) continue;
    attendees.push({
      email,
      name: a.emailAddress?.name && a.emailAddress.name !== email ? a.emailAddress.name : null,
      responseStatus: RESPONSES[a.status?.response ?? ""] ?? "needsAction",
    });
  }
  return {
    providerId: raw.id,
    seriesId: raw.seriesMasterId ?? null,
    title: raw.subject || "(No title)",
    location: raw.location?.displayName || null,
    start,
    end,
    status: raw.isCancelled ? "cancelled" : tentative ? "tentative" : "confirmed",
    organizer,
    attendees: attendees.length > 1 ? attendees : [],
    htmlLink: raw.webLink ?? null,
  };
}

function graphTime(value: ProviderTime, timeZone: string): { dateTime: string; timeZone: string } {
  if (value.kind === "date") return { dateTime: `${value.date}T00:00:00`, timeZone };
  const local = Temporal.Instant.fromEpochMilliseconds(value.at.getTime())
    .toZonedDateTimeISO(timeZone)
    .toPlainDateTime()
    .toString({ smallestUnit: "second" });
  return { dateTime: local, timeZone };
}

const PREFER = 'outlook.timezone="UTC", odata.maxpagesize=200';

/** Microsoft Graph calendar (the default calendar of /me) behind our calendar interface. */
export function createOutlookCalendarClient(http: ProviderHttp, graphBase: string): CalendarProviderClient {
  const v1 = `${graphBase}/v1.0`;

  /** Follows nextLinks to the end; returns the items and the round's deltaLink (if any). */
  async function follow(first: string): Promise<{ items: GraphEvent[]; deltaLink: string | undefined }> {
    const items: GraphEvent[] = [];
    let url: string | undefined = first;
    for (let pages = 0; url !== undefined && pages < 1000; pages += 1) {
      const body = pageSchema.parse(
        await readCursorPage(
          http,
          { method: "GET", url, headers: { prefer: PREFER } },
          "Graph says the delta token expired",
        ),
      );
      for (const item of body.value) {
        const parsed = eventSchema.safeParse(item);
        if (parsed.success) items.push(parsed.data);
      }
      if (body["@odata.deltaLink"]) return { items, deltaLink: body["@odata.deltaLink"] };
      url = body["@odata.nextLink"];
    }
    if (url !== undefined) throw new ProviderRequestError("transient", "Graph kept paging past 1000 pages");
    return { items, deltaLink: undefined };
  }

  const windowQuery = (window: { start: Date; end: Date }) =>
    `startDateTime=${encodeURIComponent(window.start.toISOString())}&endDateTime=${encodeURIComponent(window.end.toISOString())}`;

  return {
    provider: "outlook",

    async primaryCalendar() {
      const body = z
        .object({ id: z.string(), name: z.string().nullish() })
        .parse(await http.json<unknown>({ method: "GET", url: `${v1}/me/calendar` }));
      return { id: body.id, name: body.name ?? "Calendar", timeZone: null };
    },

    async fullSync(_calendarId, window) {
      const { items, deltaLink } = await follow(`${v1}/me/calendarView/delta?${windowQuery(window)}`);
      if (!deltaLink) throw new ProviderRequestError("transient", "Graph sent no delta link");
      return {
        events: items.flatMap((item) => (item["@removed"] ? [] : (mapGraphEvent(item) ?? []))),
        cursor: deltaLink,
      };
    },

    async changes(_calendarId, cursor): Promise<CalendarChanges> {
      const { items, deltaLink } = await follow(cursor);
      if (!deltaLink) throw new ProviderRequestError("transient", "Graph sent no delta link");
      return changesOf(items, (item) => (item["@removed"] ? undefined : mapGraphEvent(item)), deltaLink);
    },

    async listRange(_calendarId, window) {
      const { items } = await follow(`${v1}/me/calendarView?${windowQuery(window)}&$top=200`);
      return items.flatMap((item) => mapGraphEvent(item) ?? []);
    },

    async create(_calendarId, input: NewProviderEvent) {
      const body = {
        subject: input.title,
        ...(input.description ? { body: { contentType: "text", content: input.description } } : {}),
        start: graphTime(input.start, input.timeZone),
        end: graphTime(input.end, input.timeZone),
        isAllDay: input.start.kind === "date",
        ...(input.location ? { location: { displayName: input.location } } : {}),
        attendees: input.attendees.map((address) => ({ emailAddress: { address }, type: "required" })),
      };
      const created = eventSchema.parse(
        await http.json<unknown>({
          method: "POST",
          url: `${v1}/me/events`,
          body,
          headers: { prefer: PREFER },
        }),
      );
      const mapped = mapGraphEvent(created);
      if (!mapped) throw new ProviderRequestError("permanent", "Graph answered an event without times");
      return mapped;
    },

    async findByUid(_calendarId, uid) {
      const filter = `iCalUId eq '${uid.replace(/'/g, "''")}'`;
      const query = new URLSearchParams({ $filter: filter, $select: "id,isCancelled", $top: "5" });
      const body = z
        .object({
          value: z.array(z.object({ id: z.string(), isCancelled: z.boolean().nullish() })).default([]),
        })
        .parse(await http.json<unknown>({ method: "GET", url: `${v1}/me/events?${query.toString()}` }));
      return body.value.find((event) => !event.isCancelled)?.id ?? null;
    },

    async respond(_calendarId, eventId, _self, answer) {
      if (!/^[A-Za-z0-9_=+-]+$/.test(eventId))
        throw new ProviderRequestError("permanent", "not a Graph event id");
      await http.request({
        method: "POST",
        url: `${v1}/me/events/${eventId}/${GRAPH_ANSWER[answer]}`,
        body: { sendResponse: true },
      });
    },
  };
}

const GRAPH_ANSWER = { accepted: "accept", tentative: "tentativelyAccept", declined: "decline" } as const;
