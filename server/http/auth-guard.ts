import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from "fastify";
import type { SessionContext, SessionService } from "../auth/sessions.ts";
import type { AfterAuth } from "./fairness.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** The signed-in session; set by the requireSession preHandler, null elsewhere. */
    auth: SessionContext | null;
  }
  interface FastifyInstance {
    /** preHandler for protected routes: 401 in the contract's words unless a live session is presented. */
    requireSession: preHandlerAsyncHookHandler;
  }
}

/**
 * The session token from `Authorization: Bearer <token>`. Anything else (no header, another
 * scheme, an empty token) counts as no token, which the client reports as "log in first".
 */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match?.[1];
}

/**
 * Registers `request.auth` and `app.requireSession`; `afterAuth` runs once the person is known
 * (per-person fairness, fairness.ts).
 */
export function registerAuthGuard(
  app: FastifyInstance,
  sessions: SessionService,
  afterAuth?: AfterAuth,
): void {
  app.decorateRequest("auth", null);
  const requireSession: preHandlerAsyncHookHandler = async (request, reply) => {
    request.auth = await sessions.authenticate(bearerToken(request));
    if (afterAuth) await afterAuth(request, reply);
  };
  app.decorate("requireSession", requireSession);
}

/** The session of a request behind requireSession; a bug (not a 401) if the guard was skipped. */
export function sessionOf(request: FastifyRequest): SessionContext {
  if (!request.auth)
    throw new Error(`${request.routeOptions.url ?? request.url} is missing the requireSession guard`);
  return request.auth;
}
