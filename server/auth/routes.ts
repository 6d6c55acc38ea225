import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AuthUrlResponse, CallbackResponse, SessionResponse } from "../../contract/auth.ts";
import { mailProviderSchema, SESSION_MESSAGES } from "../../contract/auth.ts";
import type { Config } from "../config.ts";
import { bearerToken, sessionOf } from "../http/auth-guard.ts";
import { DomainError } from "../http/errors.ts";
import { perMinute, registerRateLimit } from "../http/rate-limit.ts";
import { issueFlowId, readFlowId } from "./flow-cookie.ts";
import { logFlowFailure } from "./flow-failure-log.ts";
import { presentSessionUser } from "./presenters.ts";
import { callbackQuerySchema, claimBodySchema, parseInput, startQuerySchema } from "./schema.ts";
import type { AuthServices } from "./services.ts";
import { SIGN_IN_MESSAGES } from "./sign-in.ts";

/** The SPA page that finishes sign-in; the only place the callback ever redirects to. */
const CALLBACK_PAGE = "/auth/callback";

function noStore(reply: FastifyReply): void {
  // These answers carry session tokens or single-use URLs; no cache may keep them.
  reply.header("cache-control", "no-store");
}

/** A browser navigation (flow=redirect) gets redirects; a fetch from the SPA page gets JSON. */
function isNavigation(request: FastifyRequest): boolean {
  return request.headers.accept?.includes("text/html") ?? false;
}

function callbackPage(params: Record<string, string>): string {
  return `${CALLBACK_PAGE}?${new URLSearchParams(params).toString()}`;
}

/**
 * Sign-in, session and logout endpoints. Registered as an encapsulated plugin so the per-IP rate
 * limit applies to the sign-in endpoints only, not to every API call.
 */
export async function registerAuthRoutes(
  app: FastifyInstance,
  deps: { config: Config; services: AuthServices },
): Promise<void> {
  const { config, services } = deps;
  const secureCookie = config.publicUrl.startsWith("https://");

  await app.register(async (scope) => {
    await registerRateLimit(
      scope,
      (wait) => `Too many sign-in attempts. Please wait ${wait} seconds and try again.`,
    );
    const limited = perMinute(config.authRateLimitPerMinute);

    for (const provider of mailProviderSchema.options) {
      scope.get(
        `/api/auth/${provider}`,
        { config: limited },
        async (request, reply): Promise<AuthUrlResponse> => {
          const { flow } = parseInput(startQuerySchema, request.query);
          // A signed-in caller is connecting another account; a stale token must not silently
          // turn that into a brand-new sign-in, so any token present has to be valid.
          const token = bearerToken(request);
          const link =
            request.headers.authorization !== undefined ? await services.sessions.authenticate(token) : null;
          const flowId = issueFlowId(request, reply, secureCookie);
          noStore(reply);
          const authUrl = await services.signIn.start({ provider, mode: flow, flowId, link });
          return { authUrl };
        },
      );

      scope.get(`/api/auth/${provider}/callback`, { config: limited }, async (request, reply) => {
        noStore(reply);
        const navigation = isNavigation(request);
        try {
          const query = parseInput(callbackQuerySchema, request.query);
          const result = await services.signIn.complete({
            provider,
            query,
            flowId: readFlowId(request),
            deliver: navigation ? "handoff" : "session",
          });
          if (result.grant.kind === "handoff") {
            // The spec's URL form, but what travels is a single-use handoff bound to this
            // browser's flow cookie, not a session: /auth/callback trades it (POST /api/auth/claim).
            return reply.redirect(
              callbackPage({ success: "true", sessionToken: result.grant.handoff, provider }),
            );
          }
          const body: CallbackResponse = {
            success: true,
            sessionToken: result.grant.sessionToken,
            message: result.message,
          };
          return body;
        } catch (err) {
          logFlowFailure(request, provider, err, "sign-in");
          if (!navigation) throw err;
          const message = err instanceof DomainError ? err.message : SIGN_IN_MESSAGES.failed;
          return reply.redirect(callbackPage({ error: message, provider }));
        }
      });
    }

    scope.post("/api/auth/claim", { config: limited }, async (request, reply): Promise<CallbackResponse> => {
      noStore(reply);
      const { sessionToken: handoff } = parseInput(claimBodySchema, request.body ?? {});
      try {
        const sessionToken = await services.signIn.claim({ handoff, flowId: readFlowId(request) });
        return { success: true, sessionToken, message: SIGN_IN_MESSAGES.claimed };
      } catch (err) {
        if (err instanceof DomainError)
          request.log.warn({ code: err.code, reason: err.message }, "handoff refused");
        throw err;
      }
    });
  });

  app.get(
    "/api/auth/session",
    { preHandler: app.requireSession },
    async (request): Promise<SessionResponse> => {
      const { userId } = sessionOf(request);
      const user = await services.accounts.getUser(userId);
      if (!user) throw new DomainError("unauthorized", SESSION_MESSAGES.invalid);
      return { user: presentSessionUser(user, await services.accounts.list(userId)) };
    },
  );

  app.post("/api/auth/logout", { preHandler: app.requireSession }, async (request) => {
    await services.sessions.end(sessionOf(request));
    return { success: true };
  });
}
