import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { authenticate, type GmailNeed, gmailAllows } from "../mailbox/access.ts";
import type { MailServices } from "../mailbox/services.ts";
import { registerGmailBatch } from "./batch.ts";
import { callers } from "./caller.ts";
import { GMAIL_ERRORS, sendGoogleError } from "./errors.ts";
import { registerGmailMailboxRoutes } from "./mailbox-routes.ts";
import { registerGmailMessageRoutes } from "./messages.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /** Gmail quota units this method costs; routes without one are not Gmail API methods. */
    gmailCost?: number;
    gmailNeed?: GmailNeed;
  }
}

/**
 * Order matters and follows Google: injected faults, then authentication (401), the userId
 * check, scopes (403), and only then the per-user quota (429).
 */
async function guard(mail: MailServices, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  const { gmailCost: cost, gmailNeed: need } = request.routeOptions.config;
  if (cost === undefined) return undefined;
  const inner = request.headers["x-emulator-inner"] === mail.innerRequestSecret;
  if (!inner) {
    const outcome = await mail.faults.apply("google", request, reply);
    if (outcome === "drop") return reply;
    if (outcome === "error") return sendGoogleError(reply, GMAIL_ERRORS.backendError());
  }
  const access = authenticate(mail.context, request, "google");
  if (!access.ok) {
    reply.header("www-authenticate", 'Bearer realm="https://accounts.google.com/", error="invalid_token"');
    return sendGoogleError(reply, GMAIL_ERRORS.unauthenticated());
  }
  const userId = (request.params as { userId?: string }).userId;
  if (
    userId !== undefined &&
    userId !== "me" &&
    userId.toLowerCase() !== access.identity.email.toLowerCase()
  ) {
    return sendGoogleError(reply, GMAIL_ERRORS.delegationDenied(userId));
  }
  if (need !== undefined && !gmailAllows(access.scopes, need)) {
    return sendGoogleError(reply, GMAIL_ERRORS.insufficientScope());
  }
  const query = request.query as { q?: string };
  if (typeof query.q === "string" && query.q !== "" && !gmailAllows(access.scopes, "search")) {
    return sendGoogleError(reply, GMAIL_ERRORS.metadataScopeQ());
  }
  if (!mail.quota.charge(access.identity.email.toLowerCase(), cost)) {
    return sendGoogleError(reply, GMAIL_ERRORS.rateLimited());
  }
  callers.set(request, {
    identity: access.identity,
    mailbox: mail.mailboxOf(access.identity),
    scopes: access.scopes,
  });
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
      registerGmailMailboxRoutes(scope, mail);
      registerGmailBatch(scope, mail);
    },
    { prefix: "/gmail.googleapis.com" },
  );
}
