import type { FastifyInstance } from "fastify";
import {
  calendarEventsQuerySchema,
  createCalendarEventSchema,
  invitationResponseRequestSchema,
} from "../../contract/calendar.ts";
import { sessionOf } from "../http/auth-guard.ts";
import { DomainError } from "../http/errors.ts";
import { idParam, parseInput } from "../mail/validation.ts";
import type { CalendarService } from "./calendar-service.ts";
import type { CalendarIntegrations } from "./integrations.ts";
import type { InvitationAnswers } from "./invitation-answers.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The calendar API (contract/calendar.ts); every query is scoped to the signed-in user. */
export function registerCalendarRoutes(
  app: FastifyInstance,
  deps: { calendar: CalendarService; integrations: CalendarIntegrations; answers: InvitationAnswers },
): void {
  const guarded = { preHandler: app.requireSession };
  const { calendar, integrations, answers } = deps;

  app.get("/api/calendar/integrations", guarded, async (request) =>
    integrations.list(sessionOf(request).userId),
  );

  app.delete("/api/calendar/integrations/:id", guarded, async (request, reply) => {
    const id = (request.params as { id?: unknown }).id;
    if (typeof id !== "string" || !UUID.test(id)) throw new DomainError("not_found", "No such calendar.");
    await integrations.remove(sessionOf(request).userId, id);
    return reply.status(204).send();
  });

  app.get("/api/calendar/events", guarded, async (request) => {
    const query = parseInput(calendarEventsQuerySchema, request.query);
    return calendar.events(sessionOf(request).userId, query);
  });

  app.post("/api/calendar/sync", guarded, async (request) => calendar.sync(sessionOf(request).userId));

  app.post("/api/calendar/create-event", guarded, async (request, reply) => {
    const body = parseInput(createCalendarEventSchema, request.body);
    const event = await calendar.create(sessionOf(request).userId, body);
    return reply.status(201).send({ event });
  });

  /** Yes / Maybe / No on the invitation an email carries. */
  app.post("/api/emails/:id/invitation/response", guarded, async (request) => {
    const id = idParam(request.params);
    const body = parseInput(invitationResponseRequestSchema, request.body);
    return answers.respond(sessionOf(request).userId, id, body.response);
  });
}
