import type { FastifyInstance } from "fastify";

/**
 * JSON bodies with Fastify's own parser (prototype-poisoning checks kept), except that an empty
 * body is no payload rather than a 400: clients send `Content-Type: application/json` with nothing
 * on bodiless POSTs (logout, auto-sync, analyze), and the routes treat a missing body as `{}`.
 */
export function registerJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === "") {
      done(null, undefined);
      return;
    }
    parseJson(request, text, done);
  });
}
