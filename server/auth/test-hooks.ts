import type { FastifyInstance } from "fastify";
import type { Clock } from "../lib/clock.ts";
import { advanceClockBodySchema, parseInput } from "./schema.ts";

/**
 * Test-only routes, registered only with ENABLE_TEST_HOOKS=1. Browser tests cannot wait 30 days
 * for a session to expire, so they move the server clock instead.
 */
export function registerTestHooks(app: FastifyInstance, clock: Clock): void {
  app.post("/api/_test/clock", async (request) => {
    const { advanceSeconds } = parseInput(advanceClockBodySchema, request.body);
    clock.advance(advanceSeconds);
    return { now: clock.now().toISOString() };
  });
}
