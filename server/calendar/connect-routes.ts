import type { FastifyInstance, FastifyReply } from "fastify";
import { z } from "zod";
import { type CalendarProvider, calendarConnectRequestSchema } from "../../contract/calendar.ts";
import { CALENDAR_CONNECT_FAILURES, type CalendarConnectFailure } from "../../contract/calendar-connect.ts";
import { issueFlowId, readFlowId } from "../auth/flow-cookie.ts";
import { logFlowFailure } from "../auth/flow-failure-log.ts";
import type { Config } from "../config.ts";
import { sessionOf } from "../http/auth-guard.ts";
import { DomainError } from "../http/errors.ts";
import { perMinute, registerRateLimit } from "../http/rate-limit.ts";
import { parseInput } from "../mail/validation.ts";
import type { CalendarConnect } from "./connect.ts";

const PROVIDERS: CalendarProvider[] = ["google", "outlook"];

const startQuery = z.object({
  ticket: z.string().max(100).optional(),
  account: z.string().uuid().optional(),
});
const callbackQuery = z.record(z.string(), z.unknown()).transform((raw) => {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) {
    const first: unknown = Array.isArray(value) ? value[0] : value;
    if (typeof first === "string" && first.length <= 4096) out[key] = first;
  }
  return out;
});

function noStore(reply: FastifyReply): void {
  reply.header("cache-control", "no-store");
}

/** Back to the dashboard, saying how it went (the dashboard opens the Calendar panel). */
function dashboard(params: Record<string, string>): string {
  return `/dashboard?${new URLSearchParams(params).toString()}`;
}

/**
 * The code the dashboard link carries for a failure: the flow refuses with the fixed texts of
 * CALENDAR_CONNECT_FAILURES, so its text names the code; anything else is the general failure.
 * The link carries no text: anyone can craft it, and the page shows only the code's own text.
 */
function failureCode(err: unknown): CalendarConnectFailure {
  if (!(err instanceof DomainError)) return "failed";
  const codes = Object.keys(CALENDAR_CONNECT_FAILURES) as CalendarConnectFailure[];
  return codes.find((code) => CALENDAR_CONNECT_FAILURES[code] === err.message) ?? "failed";
}

/**
 * Connecting a calendar (spec section 7: a full browser navigation to /api/auth/{provider}/calendar).
 * POST /api/calendar/connect (authenticated) answers the navigation URL with a one-time ticket;
 * the navigation spends it and goes to the provider's consent; the provider returns to
 * /api/auth/{provider}/calendar/callback, which goes back to /dashboard. Rate limited per IP like
 * sign-in.
 */
export async function registerCalendarConnectRoutes(
  app: FastifyInstance,
  deps: { config: Config; connect: CalendarConnect },
): Promise<void> {
  const { config, connect } = deps;
  const secure = config.publicUrl.startsWith("https://");
  await app.register(async (scope) => {
    await registerRateLimit(scope, (wait) => `Too many attempts. Please wait ${wait} seconds and try again.`);
    const limited = perMinute(config.authRateLimitPerMinute);

    scope.post(
      "/api/calendar/connect",
      { preHandler: scope.requireSession, config: limited },
      async (request, reply) => {
        const body = parseInput(calendarConnectRequestSchema, request.body);
        const session = sessionOf(request);
        noStore(reply);
        const flowId = issueFlowId(request, reply, secure);
        const url = await connect.mintUrl({
          userId: session.userId,
          sessionId: session.sessionId,
          provider: body.provider,
          accountId: body.accountId,
          ...(body.calendarOnly ? { calendarOnly: true } : {}),
          flowId,
        });
        return { url };
      },
    );

    for (const provider of PROVIDERS) {
      scope.get(`/api/auth/${provider}/calendar`, { config: limited }, async (request, reply) => {
        noStore(reply);
        try {
          const query = parseInput(startQuery, request.query);
          const url = await connect.start({
            provider,
            ticket: query.ticket,
            accountId: query.account,
            flowId: readFlowId(request),
          });
          return reply.redirect(url);
        } catch (err) {
          logFlowFailure(request, provider, err, "calendar connect");
          return reply.redirect(dashboard({ calendar: "error", provider, code: failureCode(err) }));
        }
      });

      scope.get(`/api/auth/${provider}/calendar/callback`, { config: limited }, async (request, reply) => {
        noStore(reply);
        try {
          const query = parseInput(callbackQuery, request.query);
          await connect.complete({ provider, query, flowId: readFlowId(request) });
          return reply.redirect(dashboard({ calendar: "connected", provider }));
        } catch (err) {
          logFlowFailure(request, provider, err, "calendar connect");
          return reply.redirect(dashboard({ calendar: "error", provider, code: failureCode(err) }));
        }
      });
    }
  });
}
