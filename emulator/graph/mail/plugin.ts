import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { authenticate, type GraphNeed, graphAllows } from "../../mailbox/access.ts";
import type { MailServices } from "../../mailbox/services.ts";
import { registerGraphAttachmentRoutes } from "./attachments.ts";
import { registerGraphBatch } from "./batch.ts";
import { callers } from "./caller.ts";
import { registerGraphDelta } from "./delta.ts";
import { sendGraphError, sendKnownGraphError } from "./errors.ts";
import { registerGraphMessageRoutes } from "./messages.ts";
import { registerGraphSubscriptionRoutes } from "./subscriptions.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /** Set on Graph mail routes: the permission the call needs. */
    graphNeed?: GraphNeed;
  }
}

const releases = new WeakMap<FastifyRequest, () => void>();

/**
 * Authentication (401), permission (403), then Outlook's per-mailbox throttling (429 with
 * Retry-After); injected latency happens while the request holds its concurrency slot, like a
 * slow backend would.
 */
async function guard(mail: MailServices, request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  const need = request.routeOptions.config.graphNeed;
  if (need === undefined) return true;
  const now = mail.context.clock.now();
  const access = authenticate(mail.context, request, "microsoft");
  if (!access.ok) {
    sendKnownGraphError(
      reply,
      access.failure === "missing"
        ? "unauthenticated"
        : access.failure === "expired"
          ? "expired"
          : "invalidToken",
      now,
    );
    return false;
  }
  if (!graphAllows(access.scopes, need)) {
    sendKnownGraphError(reply, "accessDenied", now);
    return false;
  }
  const mailbox = mail.mailboxOf(access.identity);
  const slot = mail.throttle.acquire(mailbox.key);
  if (!slot.ok) {
    reply.header("retry-after", String(slot.retryAfterSeconds));
    sendGraphError(reply, 429, slot.code, "Application is over its MailboxConcurrency limit.", now);
    return false;
  }
  releases.set(request, slot.release);
  if (request.headers["x-emulator-inner"] !== mail.innerRequestSecret) {
    const outcome = await mail.faults.apply("microsoft", request, reply);
    if (outcome === "drop") {
      slot.release();
      return false;
    }
    if (outcome === "error") {
      sendKnownGraphError(reply, "unavailable", now);
      return false;
    }
  }
  callers.set(request, { identity: access.identity, mailbox });
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
      const release = async (request: FastifyRequest) => {
        releases.get(request)?.();
      };
      scope.addHook("onResponse", release);
      scope.addHook("onRequestAbort", release);
      scope.setErrorHandler((error: FastifyError, _request, reply) => {
        const now = mail.context.clock.now();
        if (typeof error.statusCode === "number" && error.statusCode < 500) {
          return sendGraphError(reply, error.statusCode, "BadRequest", error.message, now);
        }
        return sendGraphError(reply, 500, "InternalServerError", "An internal server error occurred.", now);
      });
      registerGraphMessageRoutes(scope, mail);
      registerGraphAttachmentRoutes(scope, () => mail.context.clock.now());
      registerGraphDelta(scope, mail);
      registerGraphSubscriptionRoutes(scope, mail);
      registerGraphBatch(scope, mail);
    },
    { prefix: "/graph.microsoft.com/v1.0" },
  );
}
