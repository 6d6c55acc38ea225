import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { sendEmailRequestSchema } from "../../../contract/mail.ts";
import { rescheduleRequestSchema } from "../../../contract/scheduled.ts";
import { sessionOf } from "../../http/auth-guard.ts";
import { DomainError } from "../../http/errors.ts";
import { parseInput } from "../validation.ts";
import type { Outbox } from "./outbox-service.ts";

const paramsSchema = z.object({ id: z.string().uuid() });

function idParam(params: unknown): string {
  const parsed = paramsSchema.safeParse(params);
  if (!parsed.success) throw new DomainError("not_found", "No such mail waiting to be sent.");
  return parsed.data.id;
}

/**
 * Held mail (contract/outbox.ts): list, one, and Undo; for scheduled mail (issue 37) also
 * reschedule, edit, send now and cancel. Owner-scoped: another person's id is a 404.
 */
export function registerOutboxRoutes(app: FastifyInstance, outbox: Outbox): void {
  const guarded = { preHandler: app.requireSession };

  app.get("/api/outbox", guarded, async (request) => outbox.list(sessionOf(request).userId));

  app.get("/api/outbox/:id", guarded, async (request) =>
    outbox.get(sessionOf(request).userId, idParam(request.params)),
  );

  app.delete("/api/outbox/:id", guarded, async (request) =>
    outbox.undo(sessionOf(request).userId, idParam(request.params)),
  );

  app.patch("/api/outbox/:id", guarded, async (request) => {
    const { sendAt } = parseInput(rescheduleRequestSchema, request.body);
    return outbox.reschedule(sessionOf(request).userId, idParam(request.params), sendAt);
  });

  app.put("/api/outbox/:id", guarded, async (request) => {
    const body = parseInput(sendEmailRequestSchema, request.body);
    return outbox.replace(sessionOf(request).userId, idParam(request.params), body);
  });

  app.post("/api/outbox/:id/send", guarded, async (request) =>
    outbox.sendNow(sessionOf(request).userId, idParam(request.params)),
  );

  app.post("/api/outbox/:id/cancel", guarded, async (request, reply) => {
    await outbox.cancel(sessionOf(request).userId, idParam(request.params));
    return reply.status(204).send();
  });
}
