import type { FastifyInstance, FastifyRequest } from "fastify";
import { interactiveLoad, isInteractive } from "../lib/interactive-load.ts";

/**
 * Feeds the process's interactive load (server/lib/interactive-load.ts) with API requests, so
 * sync and analysis pace themselves while people are waiting for answers (decision 0081).
 */
export function trackInteractiveLoad(app: FastifyInstance): void {
  const ends = new WeakMap<FastifyRequest, () => void>();
  app.addHook("onRequest", (request, _reply, done) => {
    if (isInteractive(request.url)) ends.set(request, interactiveLoad.begin());
    done();
  });
  const end = (request: FastifyRequest) => {
    ends.get(request)?.();
    ends.delete(request);
  };
  app.addHook("onResponse", (request, _reply, done) => {
    end(request);
    done();
  });
  app.addHook("onRequestAbort", (request, done) => {
    end(request);
    done();
  });
}
