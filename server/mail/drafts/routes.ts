import type { FastifyInstance } from "fastify";
import { DRAFT_ID_MAX, saveDraftRequestSchema } from "../../../contract/drafts.ts";
import { sessionOf } from "../../http/auth-guard.ts";
import { parseInput } from "../validation.ts";
import { noSuchDraft } from "./draft-id.ts";
import type { DraftService } from "./service.ts";

/**
 * The id after /api/drafts/. A wildcard, not `:id`: ours embeds Graph's ids (about 150
 * characters), longer than the router's limit for a path parameter.
 */
function idOf(params: unknown): string {
  const id = (params as Record<string, unknown> | undefined)?.["*"];
  if (typeof id !== "string" || id.length > DRAFT_ID_MAX) throw noSuchDraft();
  return id;
}

/** Drafts at the provider (contract/drafts.ts); every call is scoped to the signed-in person's accounts. */
export function registerDraftRoutes(app: FastifyInstance, drafts: DraftService): void {
  const guarded = { preHandler: app.requireSession };

  app.put("/api/drafts", guarded, async (request) =>
    drafts.save(sessionOf(request).userId, parseInput(saveDraftRequestSchema, request.body)),
  );

  app.get("/api/drafts", guarded, async (request) => drafts.list(sessionOf(request).userId));

  app.get("/api/drafts/*", guarded, async (request) =>
    drafts.get(sessionOf(request).userId, idOf(request.params)),
  );

  app.delete("/api/drafts/*", guarded, async (request) =>
    drafts.remove(sessionOf(request).userId, idOf(request.params)),
  );
}
