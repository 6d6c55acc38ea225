import type { FastifyInstance, FastifyReply } from "fastify";
import { z } from "zod";
import type { Identity, Provider } from "../identities.ts";
import { sendInvitations } from "./scheduling.ts";
import type { CalendarServices } from "./services.ts";
import type { StoredEvent } from "./store.ts";
import { type EventTime, isPlainDate, isTimeZone } from "./time.ts";

const timeSchema = z.union([
  z.object({ date: z.string().refine(isPlainDate) }),
  z.object({
    local: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/),
    timeZone: z.string().refine(isTimeZone),
  }),
]);
const addSchema = z.object({
  summary: z.string(),
  location: z.string().default(""),
  start: timeSchema,
  end: timeSchema,
  rrule: z.string().optional(),
  status: z.enum(["confirmed", "tentative", "cancelled"]).default("confirmed"),
  attendees: z.array(z.object({ email: z.string(), name: z.string().optional() })).default([]),
  /** As the organizer's client would ask: "all" mails the guests and puts it in their calendars. */
  sendUpdates: z.enum(["all", "none"]).default("none"),
  /** An iCalendar UID to keep, as an .ics imported by hand keeps the invitation's. */
  uid: z.string().min(1).max(1024).optional(),
});
const patchSchema = z.object({
  summary: z.string().optional(),
  location: z.string().optional(),
  status: z.enum(["confirmed", "tentative", "cancelled"]).optional(),
});
const quotaSchema = z.object({
  enabled: z.boolean().optional(),
  unitsPerMinute: z.number().int().positive().optional(),
});

function toTime(value: z.infer<typeof timeSchema>): EventTime {
  return "date" in value ? { kind: "date", date: value.date } : { kind: "timed", ...value };
}

function summary(event: StoredEvent) {
  return {
    id: event.id,
    uid: event.uid,
    sequence: event.sequence,
    calendarId: event.calendarId,
    summary: event.summary,
    location: event.location,
    start: event.start,
    end: event.end,
    rrule: event.rrule ?? null,
    status: event.status,
    recurringEventId: event.recurringEventId ?? null,
    deleted: event.deleted,
    attendees: event.attendees.map((a) => ({ email: a.email, response: a.response })),
    organizer: event.organizer.email,
  };
}

/**
 * Test-only calendar controls under /_admin/calendars: read a person's calendar as stored, change
 * it as another client would (so sync sees it), expire sync tokens, and set Google's quota.
 */
export function registerCalendarAdminRoutes(app: FastifyInstance, services: CalendarServices): void {
  type Params = { Params: { email: string }; Querystring: { provider?: string } };
  const identityOf = (email: string, provider: string | undefined): Identity | undefined => {
    const wanted = provider === "google" || provider === "microsoft" ? (provider as Provider) : undefined;
    return services.context.identities.findByEmail(email, wanted)[0];
  };
  const notFound = (reply: FastifyReply) => reply.code(404).send({ error: "identity_not_found" });

  app.get<Params>("/_admin/calendars/:email", (request, reply) => {
    const identity = identityOf(request.params.email, request.query.provider);
    if (identity === undefined) return notFound(reply);
    const store = services.storeOf(identity);
    return {
      email: identity.email,
      provider: identity.provider,
      timeZone: store.timeZone,
      seq: store.seq,
      floor: store.floor,
      calendars: store.calendars,
      events: store.events(store.primary.id).map(summary),
    };
  });

  app.post<Params>("/_admin/calendars/:email/events", (request, reply) => {
    const identity = identityOf(request.params.email, request.query.provider);
    if (identity === undefined) return notFound(reply);
    const parsed = addSchema.safeParse(request.body);
    if (!parsed.success)
      return reply.code(400).send({ error: "invalid_request", issues: parsed.error.issues });
    const store = services.storeOf(identity);
    const self = { email: identity.email, name: identity.name };
    const event = store.add({
      calendarId: store.primary.id,
      ...(parsed.data.uid === undefined ? {} : { uid: parsed.data.uid }),
      summary: parsed.data.summary,
      description: "",
      location: parsed.data.location,
      start: toTime(parsed.data.start),
      end: toTime(parsed.data.end),
      rrule: parsed.data.rrule,
      status: parsed.data.status,
      organizer: self,
      attendees:
        parsed.data.attendees.length > 0
          ? [
              { ...self, response: "accepted" as const },
              ...parsed.data.attendees
                .filter((a) => a.email.toLowerCase() !== self.email.toLowerCase())
                .map((a) => ({ ...a, response: "needsAction" as const })),
            ]
          : [],
      originalStart: undefined,
    });
    if (parsed.data.sendUpdates === "all")
      sendInvitations(services, store, event, identity.provider === "google" ? "google" : "microsoft");
    return reply.code(201).send(summary(event));
  });

  app.patch<Params & { Params: { id: string } }>("/_admin/calendars/:email/events/:id", (request, reply) => {
    const identity = identityOf(request.params.email, request.query.provider);
    if (identity === undefined) return notFound(reply);
    const parsed = patchSchema.safeParse(request.body);
    if (!parsed.success)
      return reply.code(400).send({ error: "invalid_request", issues: parsed.error.issues });
    const change = Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== undefined));
    const event = services.storeOf(identity).update(request.params.id, change);
    return event ? summary(event) : reply.code(404).send({ error: "event_not_found" });
  });

  app.delete<Params & { Params: { id: string } }>("/_admin/calendars/:email/events/:id", (request, reply) => {
    const identity = identityOf(request.params.email, request.query.provider);
    if (identity === undefined) return notFound(reply);
    return services.storeOf(identity).delete(request.params.id)
      ? reply.code(204).send()
      : reply.code(404).send({ error: "event_not_found" });
  });

  app.post<Params>("/_admin/calendars/:email/seed", (request, reply) => {
    const identity = identityOf(request.params.email, request.query.provider);
    if (identity === undefined) return notFound(reply);
    const parsed = z
      .object({ timeZone: z.string().refine(isTimeZone).default("UTC") })
      .safeParse(request.body ?? {});
    if (!parsed.success)
      return reply.code(400).send({ error: "invalid_request", issues: parsed.error.issues });
    const store = services.calendars.seed(identity, parsed.data.timeZone);
    return reply.code(201).send({ timeZone: store.timeZone, events: store.events(store.primary.id).length });
  });

  app.post<Params>("/_admin/calendars/:email/expire-sync", (request, reply) => {
    const identity = identityOf(request.params.email, request.query.provider);
    if (identity === undefined) return notFound(reply);
    const store = services.storeOf(identity);
    store.expireSyncState();
    return { floor: store.floor };
  });

  app.put("/_admin/calendar/quota", (request, reply) => {
    const parsed = quotaSchema.safeParse(request.body);
    if (!parsed.success)
      return reply.code(400).send({ error: "invalid_request", issues: parsed.error.issues });
    services.googleQuota.settings = { ...services.googleQuota.settings, ...parsed.data };
    services.googleQuota.reset();
    return services.googleQuota.settings;
  });

  app.post("/_admin/calendars/reset", (_request, reply) => {
    services.calendars.reset();
    services.googleQuota.reset();
    return reply.code(204).send();
  });
}
