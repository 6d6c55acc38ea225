import { Temporal } from "temporal-polyfill";
import type { z } from "zod";
import type {
  CalendarEvent,
  CalendarEventsQuery,
  CalendarEventsResponse,
  CalendarProvider,
  CalendarSyncResponse,
  createCalendarEventSchema,
} from "../../contract/calendar.ts";
import { calendarWindow, isValidDate, isValidTimeZone } from "../../contract/calendar-window.ts";
import { ProviderError } from "../auth/errors.ts";
import { DomainError } from "../http/errors.ts";
import type { Clock } from "../lib/clock.ts";
import { type CalendarEventStore, rowOf } from "./event-store.ts";
import type { CalendarClientFactory } from "./factory.ts";
import type { CalendarIntegrationRow, CalendarIntegrations } from "./integrations.ts";
import { presentCalendarEvent } from "./presenters.ts";
import type { ProviderTime } from "./provider.ts";
import type { CalendarSyncer } from "./syncer.ts";

/** A calendar read this long after its last sync also starts a sync in the background. */
const FRESH_MS = 60_000;

type CreateInput = z.output<typeof createCalendarEventSchema>;

function owner(row: CalendarIntegrationRow): { provider: CalendarProvider; email: string } {
  return { provider: row.provider === "google" ? "google" : "outlook", email: row.email };
}

function invalid(field: string, message: string): DomainError {
  return new DomainError("validation_failed", message, { [field]: message });
}

/** A provider failure as the person should read it. */
function providerFailure(err: unknown, provider: string): DomainError {
  const name = provider === "google" ? "Google Calendar" : "Outlook";
  if (err instanceof ProviderError && err.kind === "reauth") {
    return new DomainError(
      "provider_reauth_required",
      `${name} access was withdrawn. Connect the calendar again.`,
    );
  }
  if (err instanceof ProviderError && err.kind === "permanent") {
    return new DomainError("bad_request", `${name} refused the event.`);
  }
  return new DomainError("provider_unavailable", `${name} is not responding right now. Please try again.`);
}

/**
 * The years an event may fall in. Year 0000 exists in neither PostgreSQL nor the providers, and a
 * date the provider takes but our store refuses would leave an event created there behind an
 * error here; every bound is checked before the provider is called.
 */
export const EVENT_YEARS = { min: 1900, max: 2999 } as const;
const YEARS_MESSAGE = `Dates must fall between the years ${EVENT_YEARS.min} and ${EVENT_YEARS.max}`;

function yearInRange(year: number): boolean {
  return year >= EVENT_YEARS.min && year <= EVENT_YEARS.max;
}

/** Wall time "YYYY-MM-DDTHH:mm[:ss]" in a zone, or an ISO instant with an offset, as an instant. */
function parseWhen(value: string, timeZone: string): Date | undefined {
  try {
    if (/(Z|[+-]\d{2}:\d{2})$/i.test(value)) return new Date(Temporal.Instant.from(value).epochMilliseconds);
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return undefined;
    return new Date(
      Temporal.PlainDateTime.from(value, { overflow: "reject" }).toZonedDateTime(timeZone).epochMilliseconds,
    );
  } catch {
    return undefined;
  }
}

/** Reading the window's events, syncing on request, and creating events on a chosen calendar. */
export function createCalendarService(deps: {
  clock: Clock;
  integrations: CalendarIntegrations;
  store: CalendarEventStore;
  syncer: CalendarSyncer;
  clientFor: CalendarClientFactory;
  log?: { warn(obj: object, msg: string): void };
}) {
  const { clock, integrations, store, syncer, clientFor } = deps;

  function syncInBackground(row: CalendarIntegrationRow): void {
    void syncer.sync(row).catch(() => undefined);
  }

  return {
    async events(userId: string, query: CalendarEventsQuery): Promise<CalendarEventsResponse> {
      const timeZone = query.tz ?? "UTC";
      if (!isValidTimeZone(timeZone))
        throw invalid("tz", "tz must be an IANA time zone such as Europe/Paris");
      if (!isValidDate(query.date)) throw invalid("date", "date must be a real day (YYYY-MM-DD)");
      const window = calendarWindow(query.date, query.view, timeZone);
      const answer: CalendarEventsResponse = {
        events: [],
        window: { start: window.start, end: window.end, timeZone },
      };
      // Spec section 4: events are fetched only when at least one calendar is connected.
      const rows = (await integrations.rows(userId)).filter((row) => row.status === "active");
      if (rows.length === 0) return answer;
      const now = clock.nowMs();
      const covered: CalendarIntegrationRow[] = [];
      const live: CalendarIntegrationRow[] = [];
      for (const row of rows) {
        if (!row.lastSyncedAt || now - row.lastSyncedAt.getTime() > FRESH_MS) syncInBackground(row);
        const inside =
          row.syncCursor !== null &&
          row.syncWindowStart !== null &&
          row.syncWindowEnd !== null &&
          row.syncWindowStart.getTime() <= Date.parse(window.start) &&
          row.syncWindowEnd.getTime() >= Date.parse(window.end);
        (inside ? covered : live).push(row);
      }
      const byId = new Map(rows.map((row) => [row.id, row]));
      const events: CalendarEvent[] = [];
      for (const row of await store.inWindow(
        userId,
        covered.map((r) => r.id),
        window,
      )) {
        const integration = byId.get(row.integrationId);
        if (integration) events.push(presentCalendarEvent(row, owner(integration)));
      }
      // Outside the synced range (or before the first sync finished): ask the provider directly.
      await Promise.all(
        live.map(async (integration) => {
          try {
            let calendarId = integration.calendarId;
            const client = clientFor(integration);
            if (!calendarId) calendarId = (await client.primaryCalendar()).id;
            const listed = await client.listRange(calendarId, {
              start: new Date(window.start),
              end: new Date(window.end),
            });
            const at = clock.now();
            for (const event of listed) {
              events.push(presentCalendarEvent(rowOf(userId, integration.id, event, at), owner(integration)));
            }
          } catch (err) {
            deps.log?.warn({ integrationId: integration.id, err }, "live calendar read failed");
          }
        }),
      );
      answer.events = events.sort(
        (a, b) => sortKey(a, timeZone).localeCompare(sortKey(b, timeZone)) || a.id.localeCompare(b.id),
      );
      return answer;
    },

    async sync(userId: string): Promise<CalendarSyncResponse> {
      const rows = await integrations.rows(userId);
      const results = await Promise.all(
        rows.map(async (row) => {
          const base = { id: row.id, provider: owner(row).provider, email: row.email };
          if (row.status !== "active") {
            return {
              ...base,
              ok: false,
              fullResync: false,
              changed: 0,
              error: "Connect the calendar again.",
            };
          }
          try {
            const outcome = await syncer.sync(row);
            return { ...base, ok: true, ...outcome, error: null };
          } catch (err) {
            return {
              ...base,
              ok: false,
              fullResync: false,
              changed: 0,
              error: providerFailure(err, row.provider).message,
            };
          }
        }),
      );
      return { integrations: results };
    },

    async create(userId: string, input: CreateInput): Promise<CalendarEvent> {
      const integration = await integrations.get(userId, input.integrationId);
      if (!integration) throw invalid("integrationId", "Choose a connected calendar");
      if (integration.status !== "active") {
        throw new DomainError(
          "provider_reauth_required",
          "Connect this calendar again before adding events to it.",
        );
      }
      if (!isValidTimeZone(input.timeZone)) throw invalid("timeZone", "Unknown time zone");
      let start: ProviderTime;
      let end: ProviderTime;
      if (input.allDay) {
        if (!isValidDate(input.start)) throw invalid("start", "Start must be a date (YYYY-MM-DD)");
        if (!isValidDate(input.end)) throw invalid("end", "End must be a date (YYYY-MM-DD)");
        if (!yearInRange(Number(input.start.slice(0, 4)))) throw invalid("start", YEARS_MESSAGE);
        if (!yearInRange(Number(input.end.slice(0, 4)))) throw invalid("end", YEARS_MESSAGE);
        if (input.end <= input.start) throw invalid("end", "End must be after start");
        start = { kind: "date", date: input.start };
        end = { kind: "date", date: input.end };
      } else {
        const startAt = parseWhen(input.start, input.timeZone);
        const endAt = parseWhen(input.end, input.timeZone);
        if (!startAt) throw invalid("start", "Start must be a date and time");
        if (!endAt) throw invalid("end", "End must be a date and time");
        // Both the instant (what PostgreSQL stores) and the wall time written must be in range.
        if (!yearInRange(startAt.getUTCFullYear()) || !yearInRange(Number(input.start.slice(0, 4))))
          throw invalid("start", YEARS_MESSAGE);
        if (!yearInRange(endAt.getUTCFullYear()) || !yearInRange(Number(input.end.slice(0, 4))))
          throw invalid("end", YEARS_MESSAGE);
        if (endAt.getTime() <= startAt.getTime()) throw invalid("end", "End must be after start");
        start = { kind: "timed", at: startAt, timeZone: input.timeZone };
        end = { kind: "timed", at: endAt, timeZone: input.timeZone };
      }
      const client = clientFor(integration);
      let created: Awaited<ReturnType<typeof client.create>>;
      try {
        let calendarId = integration.calendarId;
        if (!calendarId) {
          const info = await client.primaryCalendar();
          await integrations.setCalendar(integration.id, info);
          calendarId = info.id;
        }
        created = await client.create(calendarId, {
          title: input.title,
          start,
          end,
          timeZone: input.timeZone,
          location: input.location || undefined,
          description: input.description || undefined,
          attendees: input.attendees,
        });
      } catch (err) {
        if (err instanceof DomainError) throw err;
        throw providerFailure(err, integration.provider);
      }
      // The event exists at the provider now: a failure to keep our copy must not answer an error
      // (the person would add it again); the next sync stores it.
      try {
        const row = await store.upsertOne(userId, integration.id, created, clock.now());
        return presentCalendarEvent(row, owner(integration));
      } catch (err) {
        deps.log?.warn({ integrationId: integration.id, err }, "created event not stored; sync will");
        return presentCalendarEvent(rowOf(userId, integration.id, created, clock.now()), owner(integration));
      }
    },
  };
}

/** Orders by local start: all-day events first on their day, then timed ones by time. */
function sortKey(event: CalendarEvent, timeZone: string): string {
  if (event.allDay) return `${event.start}T00`;
  const local = Temporal.Instant.from(event.start).toZonedDateTimeISO(timeZone).toPlainDateTime().toString();
  return `${local.slice(0, 10)}T1${local.slice(11)}`;
}

export type CalendarService = ReturnType<typeof createCalendarService>;
