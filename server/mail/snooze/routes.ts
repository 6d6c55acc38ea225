import type { FastifyInstance } from "fastify";
import { snoozeRequestSchema, timeZoneRequestSchema } from "../../../contract/snooze.ts";
import { sessionOf } from "../../http/auth-guard.ts";
import { DomainError } from "../../http/errors.ts";
import { parseInput } from "../validation.ts";
import type { Snoozer } from "./snooze-service.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A conversation id is a uuid; anything else names none: the same 404 as an unknown one. */
function conversationId(params: unknown): string {
  const id = (params as { id?: unknown } | undefined)?.id;
  if (typeof id !== "string" || !UUID.test(id)) throw new DomainError("not_found", "No such conversation.");
  return id.toLowerCase();
}

/**
 * Snooze (contract/snooze.ts): on a conversation (with Conversation view off the client sends the
 * message's conversationId: a snooze always takes the whole conversation, as Gmail's does), the
 * Snoozed view, and the person's time zone. Owner-scoped: another person's id is a 404.
 */
export function registerSnoozeRoutes(app: FastifyInstance, snoozer: Snoozer): void {
  const guarded = { preHandler: app.requireSession };

  app.post("/api/conversations/:id/snooze", guarded, async (request) => {
    const { until } = parseInput(snoozeRequestSchema, request.body);
    return snoozer.snooze(sessionOf(request).userId, conversationId(request.params), until);
  });

  app.patch("/api/conversations/:id/snooze", guarded, async (request) => {
    const { until } = parseInput(snoozeRequestSchema, request.body);
    return snoozer.changeTime(sessionOf(request).userId, conversationId(request.params), until);
  });

  app.delete("/api/conversations/:id/snooze", guarded, async (request) =>
    snoozer.unsnooze(sessionOf(request).userId, conversationId(request.params)),
  );

  app.get("/api/snoozed", guarded, async (request) => snoozer.list(sessionOf(request).userId));

  app.put("/api/settings/time-zone", guarded, async (request) => {
    const { timeZone } = parseInput(timeZoneRequestSchema, request.body);
    return snoozer.setTimeZone(sessionOf(request).userId, timeZone);
  });
}
