import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import {
  GOOGLE_ERRORS,
  GOOGLE_WWW_AUTHENTICATE,
  type GoogleApiErrorBody,
  googleApiError,
  sendGoogleError,
} from "../gmail/errors.ts";
import { booleanParam, firstString } from "../gmail/params.ts";
import type { Identity } from "../identities.ts";
import { authenticate } from "../mailbox/access.ts";
import { presentGoogleEvent, presentGoogleInstance, presentGoogleRemoved } from "./google-present.ts";
import { respond, sendInvitations } from "./scheduling.ts";
import type { CalendarServices } from "./services.ts";
import type { CalendarAttendee, CalendarStore, EventInstance, ResponseStatus, StoredEvent } from "./store.ts";
import { type EventTime, instantOf, isPlainDate, isTimeZone, localIn, parseRfc3339 } from "./time.ts";
import { decodeToken, encodeToken, type PageState, type SyncState, syncStateValid } from "./tokens.ts";

const AUTH = "https://www.googleapis.com/auth/";
type Need = "read" | "list" | "write";

/** Which Calendar scopes allow a call: calendarList needs a calendar-wide scope, events do not. */
function allows(scopes: readonly string[], need: Need): boolean {
  const has = (name: string) => scopes.includes(`${AUTH}${name}`);
  if (has("calendar")) return true;
  if (need === "write") return has("calendar.events");
  if (need === "list") return has("calendar.readonly");
  return has("calendar.readonly") || has("calendar.events") || has("calendar.events.readonly");
}

const ERRORS = {
  ...GOOGLE_ERRORS,
  rateLimited: () => googleApiError(403, "Rate Limit Exceeded", "userRateLimitExceeded", "usageLimits"),
  notFound: () => googleApiError(404, "Not Found", "notFound"),
  badRequest: (message = "Bad Request") => googleApiError(400, message, "badRequest"),
  invalid: (message: string, reason = "invalid") => googleApiError(400, message, reason),
  readOnly: () =>
    googleApiError(403, "You need to have writer access to this calendar.", "requiredAccessLevel"),
  gone: (): GoogleApiErrorBody => ({
    error: {
      code: 410,
      message: "Sync token is no longer valid, a full sync is required.",
      errors: [
        {
          domain: "global",
          reason: "fullSyncRequired",
          message: "Sync token is no longer valid, a full sync is required.",
        },
      ],
      status: "ABORTED",
    },
  }),
};

interface Caller {
  identity: Identity;
  store: CalendarStore;
}

/** Faults, authentication, scope, then the per-user quota: Google's order. */
async function guard(
  services: CalendarServices,
  request: FastifyRequest,
  reply: FastifyReply,
  need: Need,
): Promise<Caller | undefined> {
  const outcome = await services.mail.faults.apply("google", request, reply);
  if (outcome === "drop") return undefined;
  if (outcome === "error") {
    sendGoogleError(reply, ERRORS.backendError());
    return undefined;
  }
  const access = authenticate(services.context, request, "google");
  if (!access.ok) {
    reply.header("www-authenticate", GOOGLE_WWW_AUTHENTICATE);
    sendGoogleError(reply, ERRORS.unauthenticated());
    return undefined;
  }
  if (!allows(access.scopes, need)) {
    sendGoogleError(reply, ERRORS.insufficientScope());
    return undefined;
  }
  if (!services.googleQuota.charge(access.identity.email.toLowerCase(), 1)) {
    sendGoogleError(reply, ERRORS.rateLimited());
    return undefined;
  }
  return { identity: access.identity, store: services.storeOf(access.identity) };
}

function calendarListEntry(store: CalendarStore, id: string) {
  const calendar = store.calendar(id);
  if (calendar === undefined) return undefined;
  return {
    kind: "calendar#calendarListEntry",
    etag: `"${store.seq}"`,
    id: calendar.id,
    summary: calendar.summary,
    timeZone: calendar.timeZone,
    colorId: calendar.primary ? "14" : "8",
    backgroundColor: calendar.color,
    foregroundColor: "#000000",
    selected: true,
    accessRole: calendar.accessRole,
    defaultReminders: calendar.primary ? [{ method: "popup", minutes: 10 }] : [],
    ...(calendar.primary ? { primary: true } : {}),
  };
}

type ListItem =
  | { instance: EventInstance }
  | { event: StoredEvent }
  | { removedId: string; event?: StoredEvent };

function present(item: ListItem, store: CalendarStore) {
  if ("instance" in item) return presentGoogleInstance(item.instance, store);
  if ("removedId" in item) return presentGoogleRemoved(item.removedId, item.event);
  return presentGoogleEvent(item.event, store);
}

function parseTime(value: unknown): EventTime | "invalid" | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "object" || value === null) return "invalid";
  const { date, dateTime, timeZone } = value as { date?: unknown; dateTime?: unknown; timeZone?: unknown };
  if (typeof date === "string") return isPlainDate(date) ? { kind: "date", date } : "invalid";
  if (typeof dateTime !== "string") return "invalid";
  if (timeZone !== undefined && (typeof timeZone !== "string" || !isTimeZone(timeZone))) return "invalid";
  const zone = typeof timeZone === "string" ? timeZone : undefined;
  const ms = parseRfc3339(dateTime);
  if (ms !== undefined) {
    const target = zone ?? "UTC";
    return { kind: "timed", local: localIn(ms, target), timeZone: target };
  }
  // A dateTime without an offset needs the zone to mean anything.
  if (zone !== undefined && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(dateTime)) {
    return { kind: "timed", local: dateTime.length === 16 ? `${dateTime}:00` : dateTime, timeZone: zone };
  }
  return "invalid";
}

const RESPONSE_STATUSES = new Set<ResponseStatus>(["needsAction", "declined", "tentative", "accepted"]);

/**
 * Who Google mails about a change: `all` guests, `externalOnly` those who are not Google Calendar
 * users (here: not Google identities), or nobody (`none`, and the default when absent).
 */
function notifyFilter(
  services: CalendarServices,
  value: unknown,
): ((email: string) => boolean) | undefined | "invalid" {
  const mode = firstString(value);
  if (mode === undefined || mode === "none") return undefined;
  if (mode === "all") return () => true;
  if (mode === "externalOnly")
    return (email) => services.context.identities.findByEmail(email, "google").length === 0;
  return "invalid";
}

/** Google Calendar API v3 under `{EMU}/www.googleapis.com/calendar/v3`. */
export function registerGoogleCalendarApi(app: FastifyInstance, services: CalendarServices): void {
  const base = "/www.googleapis.com/calendar/v3";

  app.get(`${base}/users/me/calendarList`, async (request, reply) => {
    const caller = await guard(services, request, reply, "list");
    if (caller === undefined) return reply;
    return {
      kind: "calendar#calendarList",
      etag: `"${caller.store.seq}"`,
      nextSyncToken: encodeToken({ list: caller.store.seq }),
      items: caller.store.calendars.map((calendar) => calendarListEntry(caller.store, calendar.id)),
    };
  });

  app.get<{ Params: { calendarId: string } }>(
    `${base}/users/me/calendarList/:calendarId`,
    async (request, reply) => {
      const caller = await guard(services, request, reply, "list");
      if (caller === undefined) return reply;
      const entry = calendarListEntry(caller.store, request.params.calendarId);
      return entry ?? sendGoogleError(reply, ERRORS.notFound());
    },
  );

  app.get<{ Params: { calendarId: string } }>(
    `${base}/calendars/:calendarId/events`,
    async (request, reply) => {
      const caller = await guard(services, request, reply, "read");
      if (caller === undefined) return reply;
      const { store } = caller;
      const calendar = store.calendar(request.params.calendarId);
      if (calendar === undefined) return sendGoogleError(reply, ERRORS.notFound());
      const query = request.query as Record<string, unknown>;
      const now = services.context.clock.now();
      const pageToken = firstString(query.pageToken);
      const syncToken = firstString(query.syncToken);
      const iCalUID = firstString(query.iCalUID);
      if (iCalUID !== undefined && pageToken === undefined && syncToken === undefined) {
        // events.list?iCalUID= answers the calendar's events with that UID (a series as a series).
        return {
          kind: "calendar#events",
          etag: `"${store.seq}"`,
          summary: calendar.summary,
          timeZone: calendar.timeZone,
          accessRole: calendar.accessRole,
          items: store
            .byUid(iCalUID)
            .filter((event) => event.calendarId === calendar.id && event.recurringEventId === undefined)
            .map((event) => presentGoogleEvent(event, store)),
        };
      }

      let page: PageState;
      if (pageToken !== undefined) {
        const decoded = decodeToken<PageState>(pageToken, ["calendarId", "offset", "seq"]);
        if (decoded === undefined || decoded.calendarId !== calendar.id)
          return sendGoogleError(reply, ERRORS.invalid("Invalid page token value.", "invalid"));
        page = decoded;
      } else {
        const maxResults = firstString(query.maxResults);
        const size = maxResults === undefined ? 250 : Number(maxResults);
        if (!Number.isInteger(size) || size < 1)
          return sendGoogleError(reply, ERRORS.invalid("Invalid value for: maxResults", "invalid"));
        const singleEvents = booleanParam(query.singleEvents);
        const orderBy = firstString(query.orderBy);
        if (orderBy !== undefined && orderBy !== "startTime" && orderBy !== "updated")
          return sendGoogleError(reply, ERRORS.invalid(`Invalid value for: ${orderBy} is not a valid value`));
        if (orderBy === "startTime" && !singleEvents)
          return sendGoogleError(
            reply,
            ERRORS.badRequest("The requested ordering is not available for the particular query."),
          );
        const timeMin = firstString(query.timeMin);
        const timeMax = firstString(query.timeMax);
        let since: number | undefined;
        let window: PageState["window"];
        if (syncToken !== undefined) {
          if (
            timeMin !== undefined ||
            timeMax !== undefined ||
            orderBy !== undefined ||
            firstString(query.q) !== undefined ||
            firstString(query.updatedMin) !== undefined
          )
            return sendGoogleError(
              reply,
              ERRORS.badRequest(
                "Sync token cannot be combined with timeMin, timeMax, orderBy, q or updatedMin.",
              ),
            );
          const state = decodeToken<SyncState>(syncToken, ["calendarId", "seq", "issuedAt"]);
          if (state === undefined || state.calendarId !== calendar.id)
            return sendGoogleError(reply, ERRORS.invalid("Invalid sync token value.", "invalid"));
          if (!syncStateValid(store, state, now, services.syncTokenTtlMs))
            return sendGoogleError(reply, ERRORS.gone());
          since = state.seq;
          // The token keeps the window of the listing that issued it, so changes stay in that range.
          window = state.window;
        } else {
          const min = timeMin === undefined ? undefined : parseRfc3339(timeMin);
          const max = timeMax === undefined ? undefined : parseRfc3339(timeMax);
          if ((timeMin !== undefined && min === undefined) || (timeMax !== undefined && max === undefined))
            return sendGoogleError(reply, ERRORS.badRequest());
          if (min !== undefined && max !== undefined && max <= min)
            return sendGoogleError(
              reply,
              ERRORS.invalid("The specified time range is empty.", "timeRangeEmpty"),
            );
          if (min !== undefined || max !== undefined)
            window = { startMs: min ?? Number.MIN_SAFE_INTEGER, endMs: max ?? Number.MAX_SAFE_INTEGER };
        }
        if (singleEvents && (window === undefined || window.endMs === Number.MAX_SAFE_INTEGER)) {
          // Open-ended series have no last instance; Google stops expanding about a year out.
          window = {
            startMs: window?.startMs ?? Number.MIN_SAFE_INTEGER,
            endMs: Math.min(window?.endMs ?? Number.MAX_SAFE_INTEGER, now + 366 * 86_400_000),
          };
        }
        page = {
          calendarId: calendar.id,
          offset: 0,
          seq: store.seq,
          since,
          window,
          singleEvents,
          // Incremental results always include removals, as Google's do.
          showDeleted: since !== undefined || booleanParam(query.showDeleted),
          orderBy,
          maxResults: Math.min(size, 2500),
        };
      }

      const items: ListItem[] = [];
      const window = page.window ?? { startMs: Number.MIN_SAFE_INTEGER, endMs: Number.MAX_SAFE_INTEGER };
      if (page.singleEvents) {
        if (page.since !== undefined) {
          const changes = store.changedInstances(calendar.id, page.since, window);
          for (const instance of changes.instances) items.push({ instance });
          for (const id of changes.removed) items.push({ removedId: id, event: store.get(id) });
        } else {
          for (const instance of store.instances(calendar.id, window, page.showDeleted))
            items.push({ instance });
        }
      } else {
        const events =
          page.since !== undefined ? store.changedEvents(calendar.id, page.since) : store.events(calendar.id);
        for (const event of events) {
          if (event.deleted) {
            if (page.since !== undefined) items.push({ removedId: event.id, event });
            continue;
          }
          if (event.status === "cancelled" && !page.showDeleted) continue;
          if (page.window !== undefined && event.rrule === undefined) {
            const startMs = instantOf(event.start, store.timeZone);
            const endMs = instantOf(event.end, store.timeZone);
            if (endMs <= window.startMs || startMs >= window.endMs) continue;
          }
          items.push({ event });
        }
      }
      if (page.orderBy === "updated") {
        items.sort(
          (a, b) =>
            ("event" in a && a.event ? a.event.updated : 0) - ("event" in b && b.event ? b.event.updated : 0),
        );
      }
      const slice = items.slice(page.offset, page.offset + page.maxResults);
      const more = items.length > page.offset + page.maxResults;
      const primaryInfo = store.primary;
      return {
        kind: "calendar#events",
        etag: `"${store.seq}"`,
        summary: calendar.summary,
        description: "",
        updated: new Date(now).toISOString(),
        timeZone: firstString(query.timeZone) ?? calendar.timeZone,
        accessRole: calendar.accessRole,
        defaultReminders: calendar.id === primaryInfo.id ? [{ method: "popup", minutes: 10 }] : [],
        ...(more
          ? { nextPageToken: encodeToken({ ...page, offset: page.offset + page.maxResults }) }
          : {
              nextSyncToken: encodeToken({
                calendarId: calendar.id,
                seq: page.seq,
                window: page.window,
                singleEvents: page.singleEvents,
                issuedAt: now,
              } satisfies SyncState),
            }),
        items: slice.map((item) => present(item, store)),
      };
    },
  );

  app.get<{ Params: { calendarId: string; eventId: string } }>(
    `${base}/calendars/:calendarId/events/:eventId`,
    async (request, reply) => {
      const caller = await guard(services, request, reply, "read");
      if (caller === undefined) return reply;
      const calendar = caller.store.calendar(request.params.calendarId);
      const event = caller.store.get(request.params.eventId);
      if (calendar === undefined || event === undefined || event.deleted || event.calendarId !== calendar.id)
        return sendGoogleError(reply, ERRORS.notFound());
      return presentGoogleEvent(event, caller.store);
    },
  );

  app.post<{ Params: { calendarId: string } }>(
    `${base}/calendars/:calendarId/events`,
    async (request, reply) => {
      const caller = await guard(services, request, reply, "write");
      if (caller === undefined) return reply;
      const { store, identity } = caller;
      const calendar = store.calendar(request.params.calendarId);
      if (calendar === undefined) return sendGoogleError(reply, ERRORS.notFound());
      if (calendar.accessRole !== "owner") return sendGoogleError(reply, ERRORS.readOnly());
      const body = (typeof request.body === "object" && request.body !== null ? request.body : {}) as Record<
        string,
        unknown
      >;
      const notify = notifyFilter(services, (request.query as Record<string, unknown>).sendUpdates);
      if (notify === "invalid")
        return sendGoogleError(reply, ERRORS.invalid("Invalid value for: sendUpdates", "invalidParameter"));
      const start = parseTime(body.start);
      const end = parseTime(body.end);
      if (start === undefined)
        return sendGoogleError(reply, ERRORS.invalid("Missing start time.", "required"));
      if (end === undefined) return sendGoogleError(reply, ERRORS.invalid("Missing end time.", "required"));
      if (start === "invalid" || end === "invalid" || start.kind !== end.kind)
        return sendGoogleError(reply, ERRORS.badRequest("Invalid start or end time."));
      if (instantOf(end, store.timeZone) <= instantOf(start, store.timeZone))
        return sendGoogleError(reply, ERRORS.invalid("The specified time range is empty.", "timeRangeEmpty"));
      const summary = typeof body.summary === "string" ? body.summary : "";
      const attendees: CalendarAttendee[] = [];
      if (Array.isArray(body.attendees)) {
        for (const raw of body.attendees) {
          const email = (raw as { email?: unknown }).email;
          if (typeof email !== "string" || !/^[^\s@]+@[^\s@]+$/.test(email))
            return sendGoogleError(reply, ERRORS.invalid("Invalid attendee email.", "invalid"));
          attendees.push({ email, response: "needsAction" });
        }
      }
      const self = { email: identity.email, name: identity.name };
      const event = store.add({
        calendarId: calendar.id,
        summary,
        description: typeof body.description === "string" ? body.description : "",
        location: typeof body.location === "string" ? body.location : "",
        start,
        end,
        rrule: undefined,
        status: body.status === "tentative" ? "tentative" : "confirmed",
        organizer: self,
        attendees: attendees.length > 0 ? [{ ...self, response: "accepted" }, ...attendees] : [],
        originalStart: undefined,
      });
      if (notify !== undefined) sendInvitations(services, store, event, "google", notify);
      return presentGoogleEvent(event, store);
    },
  );

  /**
   * events.patch. A guest may change only their own responseStatus (Google records it on the
   * organizer's event too, and mails the organizer a reply when sendUpdates asks); the organizer
   * may change the title, place, description and status.
   */
  app.patch<{ Params: { calendarId: string; eventId: string } }>(
    `${base}/calendars/:calendarId/events/:eventId`,
    async (request, reply) => {
      const caller = await guard(services, request, reply, "write");
      if (caller === undefined) return reply;
      const { store, identity } = caller;
      const calendar = store.calendar(request.params.calendarId);
      const event = store.get(request.params.eventId);
      if (calendar === undefined || event === undefined || event.deleted || event.calendarId !== calendar.id)
        return sendGoogleError(reply, ERRORS.notFound());
      const notify = notifyFilter(services, (request.query as Record<string, unknown>).sendUpdates);
      if (notify === "invalid")
        return sendGoogleError(reply, ERRORS.invalid("Invalid value for: sendUpdates", "invalidParameter"));
      const body = (typeof request.body === "object" && request.body !== null ? request.body : {}) as Record<
        string,
        unknown
      >;
      const organizer = event.organizer.email.toLowerCase() === identity.email.toLowerCase();
      if (Array.isArray(body.attendees)) {
        const mine = body.attendees.find(
          (raw) =>
            typeof (raw as { email?: unknown }).email === "string" &&
            String((raw as { email: string }).email).toLowerCase() === identity.email.toLowerCase(),
        ) as { responseStatus?: unknown } | undefined;
        const response = mine?.responseStatus;
        if (mine !== undefined && response !== undefined) {
          if (typeof response !== "string" || !RESPONSE_STATUSES.has(response as ResponseStatus))
            return sendGoogleError(reply, ERRORS.invalid("Invalid attendee response status.", "invalid"));
          const owner = event.organizer.email;
          const toOrganizer = notify?.(owner) === true;
          respond(services, identity, store, event, response as ResponseStatus, toOrganizer, "google");
        }
      }
      if (organizer) {
        const change: Partial<Pick<StoredEvent, "summary" | "location" | "status">> = {};
        if (typeof body.summary === "string") change.summary = body.summary;
        if (typeof body.location === "string") change.location = body.location;
        if (body.status === "confirmed" || body.status === "tentative" || body.status === "cancelled")
          change.status = body.status;
        if (Object.keys(change).length > 0) store.update(event.id, change);
      } else if (["summary", "location", "status", "start", "end"].some((key) => key in body)) {
        return sendGoogleError(
          reply,
          googleApiError(403, "You need to have writer access to this calendar.", "requiredAccessLevel"),
        );
      }
      return presentGoogleEvent(event, store);
    },
  );
}
