import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { GmailNeed } from "../mailbox/access.ts";
import type { MailServices } from "../mailbox/services.ts";
import { registerGmailBatch } from "./batch.ts";
import { callers } from "./caller.ts";
import { checkGmailCall } from "./check.ts";
import { registerGmailDraftRoutes } from "./drafts.ts";
import { GMAIL_ERRORS, sendGoogleError } from "./errors.ts";
import { registerGmailMailboxRoutes } from "./mailbox-routes.ts";
import { registerGmailMessageRoutes } from "./messages.ts";
import { registerGmailThreadRoutes } from "./threads.ts";
import { registerGmailUploadRoutes } from "./upload.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /** Gmail quota units this method costs; routes without one are not Gmail API methods. */
    gmailCost?: number;
    gmailNeed?: GmailNeed;
  }
}

/** Injected faults come first (outer requests only), then checkGmailCall. */
async function guard(mail: MailServices, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  const { gmailCost: cost, gmailNeed: need } = request.routeOptions.config;
  if (cost === undefined) return undefined;
  const inner = request.headers["x-emulator-inner"] === mail.innerRequestSecret;
  if (!inner) {
    const outcome = await mail.faults.apply("google", request, reply);
    if (outcome === "drop") return reply;
    if (outcome === "error") return sendGoogleError(reply, GMAIL_ERRORS.backendError());
  }
  const check = checkGmailCall(mail, {
    authorization: request.headers.authorization,
    userId: (request.params as { userId?: string }).userId,
    q: (request.query as { q?: unknown }).q,
    cost,
    need,
  });
  if (!check.ok) {
    if (check.wwwAuthenticate !== undefined) reply.header("www-authenticate", check.wwwAuthenticate);
    return sendGoogleError(reply, check.error);
  }
  callers.set(request, check.caller);
  return undefined;
}

/** Gmail API under `{EMU}/gmail.googleapis.com`: `/gmail/v1/users/{userId}/...` and `/batch/gmail/v1`. */
export function registerGmailApi(app: FastifyInstance, mail: MailServices): void {
  void app.register(
    async (scope) => {
      scope.addHook("preHandler", async (request, reply) => {
        const result = await guard(mail, request, reply);
        if (result !== undefined) return reply;
        return undefined;
      });
      scope.setErrorHandler((error: FastifyError, _request, reply) => {
        const status =
          typeof error.statusCode === "number" && error.statusCode < 500 ? error.statusCode : 500;
        if (status >= 500) return sendGoogleError(reply, GMAIL_ERRORS.backendError());
        return sendGoogleError(reply, GMAIL_ERRORS.invalidArgument(error.message));
      });
      registerGmailMessageRoutes(scope, mail);
      registerGmailDraftRoutes(scope, mail);
      registerGmailThreadRoutes(scope, mail);
      registerGmailMailboxRoutes(scope, mail);
      registerGmailBatch(scope, mail);
      registerGmailUploadRoutes(scope, mail);
    },
    { prefix: "/gmail.googleapis.com" },
  );
}
