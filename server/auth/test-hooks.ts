import type { FastifyInstance, preHandlerAsyncHookHandler } from "fastify";
import type { Clock } from "../lib/clock.ts";
import { advanceClockBodySchema, parseInput } from "./schema.ts";

/**
 * Test-only routes, registered only with ENABLE_TEST_HOOKS=1. Browser tests cannot wait 30 days
 * for a session to expire, so they move the server clock instead. Even so they answer only a
 * signed-in caller: a stack left running with hooks on is not a clock anyone can move.
 */
export function registerTestHooks(
  app: FastifyInstance,
  clock: Clock,
  requireSession: preHandlerAsyncHookHandler,
  analysis?: { pendingFor(accountEmail: string): Promise<number> },
): void {
  const guarded = { preHandler: requireSession };
  app.post("/api/_test/clock", guarded, async (request) => {
    const { advanceSeconds } = parseInput(advanceClockBodySchema, request.body);
    clock.advance(advanceSeconds);
    return { now: clock.now().toISOString() };
  });
  // Browser timing tests wait for the background analysis of a big mailbox to finish, so that
  // they measure the page and not two cores shared with the analysis job.
  if (analysis) {
    app.get("/api/_test/ai-pending", guarded, async (request) => {
      const email = String((request.query as { email?: unknown }).email ?? "");
      return { pending: await analysis.pendingFor(email) };
    });
  }
}
