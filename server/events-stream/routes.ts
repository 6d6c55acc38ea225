import type { FastifyInstance } from "fastify";
import { LIVE_EVENTS_PATH } from "../../contract/live-events.ts";
import { sessionOf } from "../http/auth-guard.ts";
import type { LiveHub } from "./hub.ts";

/**
 * GET /api/events: the signed-in person's live inbox as Server-Sent Events (decision 0074). The
 * tab reads it with fetch and the same `Authorization: Bearer` header as every call, so no token
 * goes in a URL. `Last-Event-ID` resumes. The response is taken over from Fastify (hijack): it
 * stays open, uncompressed (compression would hold events back) and unbuffered by proxies.
 */
export function registerLiveEventsRoute(app: FastifyInstance, hub: LiveHub): void {
  app.get(LIVE_EVENTS_PATH, { preHandler: app.requireSession }, async (request, reply) => {
    const { userId } = sessionOf(request);
    const header = request.headers["last-event-id"];
    const lastEventId = typeof header === "string" && header.length <= 64 ? header : undefined;
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      connection: "keep-alive",
      "x-accel-buffering": "no",
      "x-content-type-options": "nosniff",
    });
    const close = hub.open(userId, lastEventId, {
      write: (text) => {
        res.write(text);
      },
      buffered: () => res.writableLength,
      end: () => res.end(),
    });
    request.raw.socket.setNoDelay(true);
    res.on("close", close);
  });
  // Open streams would hold the server's close until they end by themselves.
  app.addHook("preClose", (done) => {
    hub.close();
    done();
  });
}
