import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { LIVE_EVENTS_PATH } from "../../contract/live-events.ts";
import { createFairnessGate, DEFAULT_FAIRNESS, type FairnessLimits, type Release } from "./fairness-gate.ts";

/**
 * Routes the gate leaves alone: the live event stream stays open for minutes and holds no
 * server work, so counting it would only take a slot from the person's real requests.
 */
const EXEMPT_ROUTES: ReadonlySet<string> = new Set([LIVE_EVENTS_PATH]);

/** What runs after the session is known, inside requireSession (auth-guard.ts). */
export type AfterAuth = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * Per-person fairness for the authenticated API (fairness-gate.ts): returns the step
 * requireSession runs once it knows who is asking, and releases each request's slot when its
 * response ends (or the client goes away).
 */
export function registerFairness(app: FastifyInstance, limits: FairnessLimits = DEFAULT_FAIRNESS): AfterAuth {
  const gate = createFairnessGate(limits);
  const slots = new WeakMap<FastifyRequest, Release>();

  // Whichever comes first: the response sent, or the connection closed under it.
  app.addHook("onResponse", async (request) => {
    slots.get(request)?.();
  });

  return async (request, reply) => {
    if (!request.auth || EXEMPT_ROUTES.has(request.routeOptions.url ?? "")) return;
    // Already gone: nothing to run, and no close event would come to release a slot.
    if (reply.raw.destroyed || request.raw.destroyed) return;
    const gone = new AbortController();
    const onClose = () => {
      const release = slots.get(request);
      if (release) release();
      else gone.abort();
    };
    reply.raw.once("close", onClose);
    const release = await gate.acquire(request.auth.userId, gone.signal).catch((err: unknown) => {
      reply.raw.removeListener("close", onClose);
      throw err;
    });
    slots.set(request, release);
  };
}
