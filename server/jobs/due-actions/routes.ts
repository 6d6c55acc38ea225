import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { sessionOf } from "../../http/auth-guard.ts";
import { DomainError } from "../../http/errors.ts";
import type { DueActionAttentionService } from "./attention.ts";

const paramsSchema = z.object({ id: z.string().uuid() });

function idParam(params: unknown): string {
  const parsed = paramsSchema.safeParse(params);
  if (!parsed.success) throw new DomainError("not_found", "No such failed action.");
  return parsed.data.id;
}

/** Failed and waiting due actions (contract/due-actions.ts). Owner-scoped: another person's id is a 404. */
export function registerDueActionRoutes(app: FastifyInstance, attention: DueActionAttentionService): void {
  const guarded = { preHandler: app.requireSession };

  app.get("/api/due-actions/failed", guarded, async (request) => attention.list(sessionOf(request).userId));

  app.post("/api/due-actions/:id/retry", guarded, async (request) => {
    await attention.retry(sessionOf(request).userId, idParam(request.params));
    return { ok: true };
  });

  app.delete("/api/due-actions/:id", guarded, async (request) => {
    await attention.dismiss(sessionOf(request).userId, idParam(request.params));
    return { ok: true };
  });
}
