import type { FastifyInstance } from "fastify";
import { saveDraftRequestSchema } from "../../../contract/drafts.ts";
import { sessionOf } from "../../http/auth-guard.ts";
import { parseInput } from "../validation.ts";
import { noSuchDraft } from "./draft-id.ts";
import type { DraftService } from "./service.ts";

function idOf(params: unknown): string {
  const id = (params as { id?: unknown } | undefined)?.id;
  if (typeof id !== "string") throw noSuchDraft();
  return id;
}

/** Drafts at the provider (contract/drafts.ts); every call is scoped to the signed-in person's accounts. */
export function registerDraftRoutes(app: FastifyInstance, drafts: DraftService): void {
  const guarded = { preHandler: app.requireSession };

  app.put("/api/drafts", guarded, async (request) =>
    drafts.save(sessionOf(request).userId, parseInput(saveDraftRequestSchema, request.body)),
  );

  app.get("/api/drafts", guarded, async (request) => drafts.list(sessionOf(request).userId));

  app.get("/api/drafts/:id", guarded, async (request) =>
    drafts.get(sessionOf(request).userId, idOf(request.params)),
  );

  app.delete("/api/drafts/:id", guarded, async (request) =>
    drafts.remove(sessionOf(request).userId, idOf(request.params)),
  );
}
