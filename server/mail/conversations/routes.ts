import type { FastifyInstance } from "fastify";
import { conversationPatchSchema, mailSettingsPatchSchema } from "../../../contract/conversations.ts";
import { sessionOf } from "../../http/auth-guard.ts";
import { DomainError } from "../../http/errors.ts";
import { parseInput } from "../validation.ts";
import type { Conversations } from "./service.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A conversation id is a uuid; anything else names none: the same 404 as an unknown one. */
function conversationId(params: unknown): string {
  const id = (params as { id?: unknown } | undefined)?.id;
  if (typeof id !== "string" || !UUID.test(id)) throw new DomainError("not_found", "No such conversation.");
  return id.toLowerCase();
}

/** /api/conversations/:id and /api/settings/mail (contract/conversations.ts), scoped to the session's user. */
export function registerConversationRoutes(app: FastifyInstance, conversations: Conversations): void {
  const guarded = { preHandler: app.requireSession };

  app.get("/api/conversations/:id", guarded, async (request) =>
    conversations.get(sessionOf(request).userId, conversationId(request.params)),
  );

  app.patch("/api/conversations/:id", guarded, async (request) => {
    const id = conversationId(request.params);
    const patch = parseInput(conversationPatchSchema, request.body);
    return conversations.patch(sessionOf(request).userId, id, patch);
  });

  app.delete("/api/conversations/:id", guarded, async (request) =>
    conversations.trash(sessionOf(request).userId, conversationId(request.params)),
  );

  app.get("/api/settings/mail", guarded, async (request) =>
    conversations.settings(sessionOf(request).userId),
  );

  app.patch("/api/settings/mail", guarded, async (request) => {
    const patch = parseInput(mailSettingsPatchSchema, request.body);
    return conversations.updateSettings(sessionOf(request).userId, patch);
  });
}
