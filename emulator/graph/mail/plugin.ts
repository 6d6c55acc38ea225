import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { type GraphNeed, graphAllows } from "../../mailbox/access.ts";
import type { MailServices } from "../../mailbox/services.ts";
import { registerGraphAttachmentRoutes } from "./attachments.ts";
import { registerGraphBatch } from "./batch.ts";
import { authorizeGraphCall, holdMailboxSlot, releaseMailboxSlot } from "./call-guard.ts";
import { callers } from "./caller.ts";
import { registerGraphDelta } from "./delta.ts";
import { registerGraphDraftAttachmentRoutes, registerGraphUploadSessionRoutes } from "./draft-attachments.ts";
import { sendGraphError } from "./errors.ts";
import { registerGraphMessageRoutes } from "./messages.ts";
import { registerGraphSubscriptionRoutes } from "./subscriptions.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /** Set on Graph mail routes: the permission the call needs. */
    graphNeed?: GraphNeed;
  }
}

/**
 * Authentication (401), permission (403), then Outlook's per-mailbox throttling (429 with
 * Retry-After); injected latency happens while the request holds its concurrency slot, like a
 * slow backend would.
 */
async function guard(mail: MailServices, request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  const need = request.routeOptions.config.graphNeed;
  if (need === undefined) return true;
  const now = mail.context.clock.now();
  const identity = authorizeGraphCall(mail.context, request, reply, {
    allows: (scopes) => graphAllows(scopes, need),
    now,
  });
  if (identity === undefined) return false;
  const mailbox = mail.mailboxOf(identity);
  const held = await holdMailboxSlot(mail, request, reply, {
    mailboxKey: mailbox.key,
    // A batch's inner requests were already exposed to faults as part of the outer one.
    injectFaults: request.headers["x-emulator-inner"] !== mail.innerRequestSecret,
    now,
  });
  if (held === undefined) return false;
  callers.set(request, { identity, mailbox });
  return true;
}

/**
 * Graph mail under `{EMU}/graph.microsoft.com/v1.0`: /me/mailFolders, /me/messages (and their
 * attachments), /subscriptions, /$batch.
 */
export function registerGraphMailApi(app: FastifyInstance, mail: MailServices): void {
  void app.register(
    async (scope) => {
      scope.addHook("preHandler", async (request, reply) => {
        if (!(await guard(mail, request, reply))) return reply;
        return undefined;
      });
      scope.addHook("onResponse", releaseMailboxSlot);
      scope.addHook("onRequestAbort", releaseMailboxSlot);
      scope.setErrorHandler((error: FastifyError, _request, reply) => {
        const now = mail.context.clock.now();
        if (typeof error.statusCode === "number" && error.statusCode < 500) {
          return sendGraphError(reply, error.statusCode, "BadRequest", error.message, now);
        }
        return sendGraphError(reply, 500, "InternalServerError", "An internal server error occurred.", now);
      });
      registerGraphMessageRoutes(scope, mail);
      registerGraphDraftAttachmentRoutes(scope, mail);
      registerGraphAttachmentRoutes(scope, () => mail.context.clock.now());
      registerGraphDelta(scope, mail);
      registerGraphSubscriptionRoutes(scope, mail);
      registerGraphBatch(scope, mail);
    },
    { prefix: "/graph.microsoft.com/v1.0" },
  );
  registerGraphUploadSessionRoutes(app, mail);
}
