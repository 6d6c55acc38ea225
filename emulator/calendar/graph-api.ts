import { createHash } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { Temporal } from "temporal-polyfill";
import { emulatorBaseUrl } from "../context.ts";
import { firstString } from "../gmail/params.ts";
import { authorizeGraphCall, holdMailboxSlot, releaseMailboxSlot } from "../graph/mail/call-guard.ts";
import { sendGraphError, sendKnownGraphError } from "../graph/mail/errors.ts";
import type { Identity } from "../identities.ts";
import { MailboxRegistry } from "../mailbox/registry.ts";
import { respond, sendInvitations } from "./scheduling.ts";
import type { CalendarServices } from "./services.ts";
import type {
  CalendarAttendee,
  CalendarStore,
  EventInstance,
  ResponseStatus,
  StoredEvent,
  Window,
} from "./store.ts";
import { type EventTime, graphDateTime, instantOf, isTimeZone } from "./time.ts";
import { decodeToken, encodeToken, syncStateValid } from "./tokens.ts";

type Need = "read" | "write";

function allows(scopes: readonly string[], need: Need): boolean {
  const names = new Set(
    scopes.map((scope) => scope.replace(/^https:\/\/graph\.microsoft\.com\//i, "").toLowerCase()),
  );
  if (names.has(".default") || names.has("calendars.readwrite")) return true;
  return need === "read" && names.has("calendars.read");
}

/** Graph ids are opaque; ours carry the instance id so a single event can be read back. */
export function graphEventId(instanceId: string): string {
  return `AAMkAD${Buffer.from(instanceId).toString("base64url")}`;
}

function instanceIdOf(graphId: string): string | undefined {
  if (!graphId.startsWith("AAMkAD")) return undefined;
  return Buffer.from(graphId.slice(6), "base64url").toString("utf8");
}

const RESPONSES: Record<ResponseStatus, string> = {
  needsAction: "notResponded",
  accepted: "accepted",
  tentative: "tentativelyAccepted",
  declined: "declined",
};

interface Caller {
  identity: Identity;
  store: CalendarStore;
  release: () => void;
}

function present(
  store: CalendarStore,
  source: StoredEvent,
  id: string,
  kind: "singleInstance" | "occurrence" | "exception",
  master: StoredEvent | undefined,
  start: EventTime,
  end: EventTime,
  zone: string,
) {
  const self = store.owner.email.toLowerCase();
  const organizer = source.organizer.email.toLowerCase() === self;
  const mine = source.attendees.find((attendee) => attendee.email.toLowerCase() === self);
  const allDay = start.kind === "date";
  const time = (value: EventTime) =>
    value.kind === "date"
      ? { dateTime: `${value.date}T00:00:00.0000000`, timeZone: zone }
      : { dateTime: graphDateTime(instantOf(value, store.timeZone), zone), timeZone: zone };
  const changeKey = createHash("sha1")
    .update(`${source.id}:${source.changeSeq}`)
    .digest("base64")
    .slice(0, 24);
  // Exchange shows a meeting request not yet answered as tentative in the guest's calendar.
  const tentative =
    source.status === "tentative" ||
    mine?.response === "tentative" ||
    (!organizer && mine?.response === "needsAction");
  return {
    "@odata.etag": `W/"${changeKey}"`,
    id: graphEventId(id),
    createdDateTime: new Date(source.created).toISOString(),
    lastModifiedDateTime: new Date(source.updated).toISOString(),
    changeKey,
    categories: [],
    originalStartTimeZone: start.kind === "timed" ? start.timeZone : zone,
    originalEndTimeZone: end.kind === "timed" ? end.timeZone : zone,
    iCalUId: source.uid,
    reminderMinutesBeforeStart: 15,
    isReminderOn: true,
    hasAttachments: false,
    subject: source.summary,
    bodyPreview: source.description.slice(0, 255),
    importance: "normal",
    sensitivity: "normal",
    isAllDay: allDay,
    isCancelled: source.status === "cancelled",
    isOrganizer: organizer,
    responseRequested: true,
    seriesMasterId: master ? graphEventId(master.id) : null,
    showAs: tentative ? "tentative" : allDay && /out of office/i.test(source.summary) ? "oof" : "busy",
    type: kind,
    webLink: `https://outlook.live.com/owa/?itemid=${encodeURIComponent(graphEventId(id))}&exvsurl=1&path=/calendar/item`,
    onlineMeetingUrl: null,
    isOnlineMeeting: false,
    responseStatus: {
      response: organizer ? "organizer" : RESPONSES[mine?.response ?? "needsAction"],
      time: "0001-01-01T00:00:00Z",
    },
    body: {
      contentType: "html",
      content: source.description ? `<html><body>${source.description}</body></html>` : "",
    },
    start: time(start),
    end: time(end),
    location: {
      displayName: source.location,
      locationType: "default",
      uniqueIdType: source.location ? "private" : "unknown",
    },
    locations: source.location ? [{ displayName: source.location, locationType: "default" }] : [],
    recurrence: null,
    attendees: source.attendees
      .filter((attendee) => attendee.email !== source.organizer.email)
      .map((attendee) => ({
        type: "required",
        status: { response: RESPONSES[attendee.response] ?? "none", time: "0001-01-01T00:00:00Z" },
        emailAddress: { name: attendee.name ?? attendee.email, address: attendee.email },
      })),
    organizer: {
      emailAddress: {
        name: source.organizer.name ?? source.organizer.email,
        address: source.organizer.email,
      },
    },
  };
}

function presentInstance(store: CalendarStore, instance: EventInstance, zone: string) {
  const kind = instance.kind === "single" ? "singleInstance" : instance.kind;
  return present(
    store,
    instance.source,
    instance.id,
    kind,
    instance.master,
    instance.start,
    instance.end,
    zone,
  );
}

/** Graph lists no deleted occurrences; an organizer-cancelled meeting stays, isCancelled. */
function visible(instance: EventInstance): boolean {
  return !(instance.kind === "exception" && instance.source.status === "cancelled");
}

/** ISO 8601 with or without an offset; Graph reads a bare local time as UTC. */
function parseGraphTime(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  try {
    if (/(Z|[+-]\d{2}:\d{2})$/i.test(text)) return Temporal.Instant.from(text).epochMilliseconds;
    return Temporal.PlainDateTime.from(text).toZonedDateTime("UTC").epochMilliseconds;
  } catch {
    return undefined;
  }
}

/** `Prefer: outlook.timezone="..."`; UTC otherwise, as Graph answers. */
function preferredZone(request: FastifyRequest): string {
  const prefer = String(request.headers.prefer ?? "");
  const match = /outlook\.timezone="([^"]+)"/i.exec(prefer);
  return match?.[1] !== undefined && isTimeZone(match[1]) ? match[1] : "UTC";
}

function pageSize(request: FastifyRequest, top: string | undefined, fallback: number): number {
  const match = /odata\.maxpagesize=(\d+)/i.exec(String(request.headers.prefer ?? ""));
  const size = Number(match?.[1] ?? top ?? fallback);
  return Number.isInteger(size) && size > 0 ? Math.min(size, 1000) : fallback;
}

interface DeltaState {
  calendarId: string;
  window: Window;
  since: number | undefined;
  seq: number;
  offset: number;
  issuedAt: number;
}

/** Graph calendar under `{EMU}/graph.microsoft.com/v1.0/me`: calendars, calendarView, delta, events. */
export function registerGraphCalendarApi(app: FastifyInstance, services: CalendarServices): void {
  const guard = async (
    request: FastifyRequest,
    reply: FastifyReply,
    need: Need,
  ): Promise<Caller | undefined> => {
    const now = services.context.clock.now();
    const identity = authorizeGraphCall(services.context, request, reply, {
      allows: (scopes) => allows(scopes, need),
      now,
    });
    if (identity === undefined) return undefined;
    // Outlook's limits are per mailbox: calendar calls share them with mail calls.
    const release = await holdMailboxSlot(services.mail, request, reply, {
      mailboxKey: MailboxRegistry.keyOf(identity),
      injectFaults: true,
      now,
    });
    if (release === undefined) return undefined;
    return { identity, store: services.storeOf(identity), release };
  };

  void app.register(
    async (scope) => {
      scope.addHook("onResponse", releaseMailboxSlot);
      scope.addHook("onRequestAbort", releaseMailboxSlot);
      const now = () => services.context.clock.now();

      const calendarJson = (store: CalendarStore) => {
        const calendar = store.primary;
        return {
          id: calendar.id,
          name: calendar.summary,
          color: "auto",
          hexColor: "",
          isDefaultCalendar: true,
          changeKey: createHash("sha1").update(calendar.id).digest("base64").slice(0, 24),
          canShare: true,
          canViewPrivateItems: true,
          canEdit: true,
          allowedOnlineMeetingProviders: ["teamsForBusiness"],
          defaultOnlineMeetingProvider: "teamsForBusiness",
          isTallyingResponses: true,
          isRemovable: false,
          owner: { name: store.owner.name ?? store.owner.email, address: store.owner.email },
        };
      };

      scope.get("/me/calendars", async (request, reply) => {
        const caller = await guard(request, reply, "read");
        if (caller === undefined) return reply;
        return {
          "@odata.context": "https://graph.microsoft.com/v1.0/$metadata#users('me')/calendars",
          value: [calendarJson(caller.store)],
        };
      });

      scope.get("/me/calendar", async (request, reply) => {
        const caller = await guard(request, reply, "read");
        if (caller === undefined) return reply;
        return {
          "@odata.context": "https://graph.microsoft.com/v1.0/$metadata#users('me')/calendar/$entity",
          ...calendarJson(caller.store),
        };
      });

      const windowOf = (query: Record<string, unknown>, reply: FastifyReply): Window | undefined => {
        const startText = firstString(query.startDateTime) ?? firstString(query.StartDateTime);
        const endText = firstString(query.endDateTime) ?? firstString(query.EndDateTime);
        if (startText === undefined || endText === undefined) {
          sendGraphError(
            reply,
            400,
            "ErrorInvalidParameter",
            "This request requires a time window specified by the query string parameters StartDateTime and EndDateTime.",
            now(),
          );
          return undefined;
        }
        const startMs = parseGraphTime(startText);
        const endMs = parseGraphTime(endText);
        if (startMs === undefined || endMs === undefined) {
          sendGraphError(
            reply,
            400,
            "ErrorInvalidParameter",
            "The value of the parameter 'StartDateTime' or 'EndDateTime' is invalid.",
            now(),
          );
          return undefined;
        }
        if (endMs <= startMs) {
          sendGraphError(
            reply,
            400,
            "ErrorInvalidParameter",
            "The parameter 'EndDateTime' must be after 'StartDateTime'.",
            now(),
          );
          return undefined;
        }
        return { startMs, endMs };
      };

      scope.get("/me/calendarView", async (request, reply) => {
        const caller = await guard(request, reply, "read");
        if (caller === undefined) return reply;
        const query = request.query as Record<string, unknown>;
        const window = windowOf(query, reply);
        if (window === undefined) return reply;
        const top = pageSize(request, firstString(query.$top), 10);
        const skip = Number(firstString(query.$skip) ?? 0);
        if (!Number.isInteger(skip) || skip < 0)
          return sendGraphError(reply, 400, "BadRequest", "Invalid $skip value.", now());
        const zone = preferredZone(request);
        if (zone !== "UTC") reply.header("preference-applied", `outlook.timezone="${zone}"`);
        const all = caller.store.instances(caller.store.primary.id, window, true).filter(visible);
        const page = all.slice(skip, skip + top);
        const out: Record<string, unknown> = {
          "@odata.context": "https://graph.microsoft.com/v1.0/$metadata#users('me')/calendarView",
          value: page.map((instance) => presentInstance(caller.store, instance, zone)),
        };
        if (all.length > skip + top) {
          const next = new URL(
            `${emulatorBaseUrl(services.context, request)}/graph.microsoft.com/v1.0/me/calendarView`,
          );
          for (const [key, value] of Object.entries(query)) {
            const text = firstString(value);
            if (text !== undefined && key !== "$skip") next.searchParams.set(key, text);
          }
          next.searchParams.set("$top", String(top));
          next.searchParams.set("$skip", String(skip + top));
          out["@odata.nextLink"] = next.toString();
        }
        return out;
      });

      scope.get("/me/calendarView/delta", async (request, reply) => {
        const caller = await guard(request, reply, "read");
        if (caller === undefined) return reply;
        const { store } = caller;
        const query = request.query as Record<string, unknown>;
        const skipToken = firstString(query.$skiptoken);
        const deltaToken = firstString(query.$deltatoken);
        const clock = now();
        let state: DeltaState;
        if (skipToken !== undefined || deltaToken !== undefined) {
          const decoded = decodeToken<DeltaState>(skipToken ?? deltaToken ?? "", [
            "calendarId",
            "window",
            "seq",
            "offset",
          ]);
          if (decoded === undefined || decoded.calendarId !== store.primary.id)
            return sendKnownGraphError(reply, "syncStateGone", clock);
          state = decoded;
          if (deltaToken !== undefined) {
            const valid = syncStateValid(
              store,
              {
                calendarId: state.calendarId,
                seq: state.seq,
                window: state.window,
                singleEvents: true,
                issuedAt: state.issuedAt,
              },
              clock,
              services.syncTokenTtlMs,
            );
            if (!valid) return sendKnownGraphError(reply, "syncStateGone", clock);
            state = { ...state, since: state.seq, seq: store.seq, offset: 0 };
          } else if (state.since !== undefined && state.since < store.floor) {
            return sendKnownGraphError(reply, "syncStateGone", clock);
          }
        } else {
          const window = windowOf(query, reply);
          if (window === undefined) return reply;
          state = {
            calendarId: store.primary.id,
            window,
            since: undefined,
            seq: store.seq,
            offset: 0,
            issuedAt: clock,
          };
        }
        const zone = preferredZone(request);
        type Item = { instance: EventInstance } | { removed: string };
        const items: Item[] = [];
        if (state.since === undefined) {
          for (const instance of store.instances(store.primary.id, state.window, true))
            if (visible(instance)) items.push({ instance });
        } else {
          const changes = store.changedInstances(store.primary.id, state.since, state.window);
          for (const instance of changes.instances) {
            items.push(visible(instance) ? { instance } : { removed: instance.id });
          }
          for (const id of changes.removed) items.push({ removed: id });
        }
        const size = pageSize(request, undefined, 10);
        const page = items.slice(state.offset, state.offset + size);
        const base = `${emulatorBaseUrl(services.context, request)}/graph.microsoft.com/v1.0/me/calendarView/delta`;
        const out: Record<string, unknown> = {
          "@odata.context": "https://graph.microsoft.com/v1.0/$metadata#Collection(event)",
          value: page.map((item) =>
            "instance" in item
              ? { "@odata.type": "#microsoft.graph.event", ...presentInstance(store, item.instance, zone) }
              : {
                  "@odata.type": "#microsoft.graph.event",
                  id: graphEventId(item.removed),
                  "@removed": { reason: "deleted" },
                },
          ),
        };
        if (items.length > state.offset + size) {
          out["@odata.nextLink"] =
            `${base}?$skiptoken=${encodeToken({ ...state, offset: state.offset + size })}`;
        } else {
          out["@odata.deltaLink"] =
            `${base}?$deltatoken=${encodeToken({ ...state, offset: 0, issuedAt: clock })}`;
        }
        return out;
      });

      /** /me/events, as far as finding an event by its iCalendar UID ($filter=iCalUId eq '...'). */
      scope.get("/me/events", async (request, reply) => {
        const caller = await guard(request, reply, "read");
        if (caller === undefined) return reply;
        const filter = firstString((request.query as Record<string, unknown>).$filter);
        const match = filter === undefined ? null : /^iCalUId eq '((?:[^']|'')*)'$/i.exec(filter.trim());
        if (filter !== undefined && match === null)
          return sendGraphError(
            reply,
            400,
            "ErrorInvalidUrlQueryFilter",
            "The query filter is not supported.",
            now(),
          );
        const uid = match?.[1]?.replaceAll("''", "'");
        const zone = preferredZone(request);
        const events = caller.store
          .events(caller.store.primary.id)
          .filter(
            (e) => !e.deleted && e.recurringEventId === undefined && (uid === undefined || e.uid === uid),
          );
        return {
          "@odata.context": "https://graph.microsoft.com/v1.0/$metadata#users('me')/events",
          value: events.map((e) =>
            present(
              caller.store,
              e,
              e.id,
              e.rrule ? "occurrence" : "singleInstance",
              undefined,
              e.start,
              e.end,
              zone,
            ),
          ),
        };
      });

      const ANSWERS = { accept: "accepted", tentativelyAccept: "tentative", decline: "declined" } as const;
      for (const [action, response] of Object.entries(ANSWERS)) {
        /** The guest answers; with sendResponse (default true) the organizer gets the reply by mail. */
        scope.post<{ Params: { id: string } }>(`/me/events/:id/${action}`, async (request, reply) => {
          const caller = await guard(request, reply, "write");
          if (caller === undefined) return reply;
          const instanceId = instanceIdOf(request.params.id);
          const event = instanceId === undefined ? undefined : caller.store.get(instanceId);
          if (event === undefined || event.deleted) return sendKnownGraphError(reply, "notFound", now());
          if (event.organizer.email.toLowerCase() === caller.identity.email.toLowerCase())
            return sendGraphError(
              reply,
              400,
              "ErrorInvalidRequest",
              "Your request can't be completed. You can't respond to a meeting you organized.",
              now(),
            );
          const body = (typeof request.body === "object" && request.body !== null ? request.body : {}) as {
            sendResponse?: unknown;
          };
          const answered = respond(
            services,
            caller.identity,
            caller.store,
            event,
            response,
            body.sendResponse !== false,
            "microsoft",
          );
          if (!answered)
            return sendGraphError(
              reply,
              400,
              "ErrorInvalidRequest",
              "Your request can't be completed. You aren't an attendee of this meeting.",
              now(),
            );
          return reply.code(202).send();
        });
      }

      scope.get<{ Params: { id: string } }>("/me/events/:id", async (request, reply) => {
        const caller = await guard(request, reply, "read");
        if (caller === undefined) return reply;
        const instanceId = instanceIdOf(request.params.id);
        const event = instanceId === undefined ? undefined : caller.store.get(instanceId);
        if (event === undefined || event.deleted) return sendKnownGraphError(reply, "notFound", now());
        const kind = event.recurringEventId ? "exception" : "singleInstance";
        const master = event.recurringEventId ? caller.store.get(event.recurringEventId) : undefined;
        return present(
          caller.store,
          event,
          event.id,
          kind,
          master,
          event.start,
          event.end,
          preferredZone(request),
        );
      });

      scope.post("/me/events", async (request, reply) => {
        const caller = await guard(request, reply, "write");
        if (caller === undefined) return reply;
        const { store, identity } = caller;
        const body = (
          typeof request.body === "object" && request.body !== null ? request.body : {}
        ) as Record<string, unknown>;
        const invalid = (message: string) =>
          sendGraphError(reply, 400, "ErrorInvalidRequest", message, now());
        const isAllDay = body.isAllDay === true;
        const readTime = (value: unknown): EventTime | string => {
          const { dateTime, timeZone } = (typeof value === "object" && value !== null ? value : {}) as {
            dateTime?: unknown;
            timeZone?: unknown;
          };
          if (typeof dateTime !== "string")
            return "Your request can't be completed. The start and end of the event are required.";
          const zone = typeof timeZone === "string" ? timeZone : "UTC";
          if (!isTimeZone(zone))
            return `A valid TimeZone value must be specified. The following TimeZone value is not supported: '${zone}'.`;
          const ms = parseGraphTime(
            dateTime.endsWith("Z") || /[+-]\d{2}:\d{2}$/.test(dateTime) ? dateTime : undefined,
          );
          let local: string;
          try {
            local =
              ms !== undefined
                ? Temporal.Instant.fromEpochMilliseconds(ms)
                    .toZonedDateTimeISO(zone)
                    .toPlainDateTime()
                    .toString({ smallestUnit: "second" })
                : Temporal.PlainDateTime.from(dateTime).toString({ smallestUnit: "second" });
          } catch {
            return "The value of the dateTime property is not valid.";
          }
          if (isAllDay) {
            if (!local.endsWith("T00:00:00"))
              return "Your request can't be completed. If the event is an all-day event, start and end must be at midnight.";
            return { kind: "date", date: local.slice(0, 10) };
          }
          return { kind: "timed", local, timeZone: zone };
        };
        const start = readTime(body.start);
        if (typeof start === "string") return invalid(start);
        const end = readTime(body.end);
        if (typeof end === "string") return invalid(end);
        if (instantOf(end, store.timeZone) <= instantOf(start, store.timeZone))
          return invalid("Your request can't be completed. The end time must be after the start time.");
        const attendees: CalendarAttendee[] = [];
        if (Array.isArray(body.attendees)) {
          for (const raw of body.attendees) {
            const email = (raw as { emailAddress?: { address?: unknown; name?: unknown } }).emailAddress;
            if (typeof email?.address !== "string" || !/^[^\s@]+@[^\s@]+$/.test(email.address))
              return invalid("Your request can't be completed. An attendee's email address is not valid.");
            attendees.push({
              email: email.address,
              ...(typeof email.name === "string" ? { name: email.name } : {}),
              response: "needsAction",
            });
          }
        }
        const content = (body.body as { content?: unknown } | undefined)?.content;
        const self = { email: identity.email, name: identity.name };
        const event = store.add({
          calendarId: store.primary.id,
          summary: typeof body.subject === "string" ? body.subject : "",
          description: typeof content === "string" ? content : "",
          location:
            typeof (body.location as { displayName?: unknown } | undefined)?.displayName === "string"
              ? String((body.location as { displayName: string }).displayName)
              : "",
          start,
          end,
          rrule: undefined,
          status: "confirmed",
          organizer: self,
          attendees: attendees.length > 0 ? [{ ...self, response: "accepted" }, ...attendees] : [],
          originalStart: undefined,
        });
        // Exchange sends the meeting request as soon as an event with attendees is saved.
        if (attendees.length > 0) sendInvitations(services, store, event, "microsoft");
        const zone = preferredZone(request);
        return reply
          .code(201)
          .send(present(store, event, event.id, "singleInstance", undefined, event.start, event.end, zone));
      });
    },
    { prefix: "/graph.microsoft.com/v1.0" },
  );
}
