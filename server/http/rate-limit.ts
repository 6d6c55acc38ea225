import rateLimit, { type RateLimitOptions } from "@fastify/rate-limit";
import type { FastifyInstance } from "fastify";
import { DomainError } from "./errors.ts";

// The public endpoints that anyone can call (sign-in, calendar connect, Graph's webhook) limit
// requests per address the same way; one place keeps the error they answer with alike.

/**
 * Turns on per-address rate limiting in `scope` for the routes that ask for it (with perMinute),
 * and answers an exceeded limit with our `rate_limited` error, so the client gets the stable id
 * and a message saying how long to wait.
 */
export async function registerRateLimit(
  scope: FastifyInstance,
  message: (waitSeconds: number) => string,
): Promise<void> {
  await scope.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) =>
      new DomainError("rate_limited", message(Math.ceil(context.ttl / 1000))),
  });
}

/** Route config: at most `max` requests a minute from one address. */
export function perMinute(max: number): { rateLimit: RateLimitOptions } {
  return { rateLimit: { max, timeWindow: 60_000 } };
}
