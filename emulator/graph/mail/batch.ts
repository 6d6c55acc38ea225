import type { FastifyInstance } from "fastify";
import type { MailServices } from "../../mailbox/services.ts";
import { sendGraphError, sendKnownGraphError } from "./errors.ts";

/** Graph's JSON batching allows 20 requests per batch. */
export const MAX_GRAPH_BATCH = 20;

interface BatchRequest {
  id: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  dependsOn: string[];
}

function parseRequests(body: unknown): BatchRequest[] | string {
  const requests = (body as { requests?: unknown } | null)?.requests;
  if (!Array.isArray(requests)) return "Invalid batch payload format.";
  const out: BatchRequest[] = [];
  for (const item of requests as Record<string, unknown>[]) {
    if (typeof item?.id !== "string" || typeof item.method !== "string" || typeof item.url !== "string") {
      return "Each batch request needs id, method and url.";
    }
    const headers: Record<string, string> = {};
    if (typeof item.headers === "object" && item.headers !== null) {
      for (const [name, value] of Object.entries(item.headers)) headers[name.toLowerCase()] = String(value);
    }
    const dependsOn = Array.isArray(item.dependsOn) ? item.dependsOn.map(String) : [];
    out.push({
      id: item.id,
      method: item.method.toUpperCase(),
      url: item.url,
      headers,
      body: item.body,
      dependsOn,
    });
  }
  if (new Set(out.map((request) => request.id)).size !== out.length)
    return "Batch request ids must be unique.";
  return out;
}

/**
 * `POST /$batch`: inner requests replay through this server one after another, in order, so
 * each is authenticated and throttled by itself and may come back 429 inside a 200 batch.
 * A request whose dependency failed answers 424, as Graph does. Injected faults (latency, 503s,
 * dropped connections) apply to the batch itself as to any single route: inner requests skip
 * them, so a batch is slowed or failed once, not once per part.
 */
export function registerGraphBatch(app: FastifyInstance, mail: MailServices): void {
  app.post("/$batch", async (request, reply) => {
    const now = mail.context.clock.now();
    const requests = parseRequests(request.body);
    if (typeof requests === "string") return sendGraphError(reply, 400, "BadRequest", requests, now);
    if (requests.length > MAX_GRAPH_BATCH) {
      return sendGraphError(
        reply,
        400,
        "BadRequest",
        `The number of batch requests exceeds the limit of ${MAX_GRAPH_BATCH}.`,
        now,
      );
    }
    const fault = await mail.faults.apply("microsoft", request, reply);
    if (fault === "drop") return reply;
    if (fault === "error") return sendKnownGraphError(reply, "unavailable", mail.context.clock.now());
    const statuses = new Map<string, number>();
    const responses: Record<string, unknown>[] = [];
    for (const inner of requests) {
      const failedDependency = inner.dependsOn.some((id) => (statuses.get(id) ?? 424) >= 400);
      if (failedDependency) {
        statuses.set(inner.id, 424);
        responses.push({
          id: inner.id,
          status: 424,
          headers: { "content-type": "application/json" },
          body: {
            error: { code: "FailedDependency", message: "A dependent request failed or did not run." },
          },
        });
        continue;
      }
      const headers: Record<string, string> = {
        ...inner.headers,
        "x-emulator-inner": mail.innerRequestSecret,
      };
      if (request.headers.authorization !== undefined) headers.authorization = request.headers.authorization;
      const hasBody = inner.body !== undefined && inner.method !== "GET";
      if (hasBody) headers["content-type"] ??= "application/json";
      const path = inner.url.replace(/^https:\/\/graph\.microsoft\.com\/v1\.0/i, "").replace(/^\/?/, "/");
      const response = await app.inject({
        method: inner.method as "GET",
        url: `/graph.microsoft.com/v1.0${path}`,
        headers,
        ...(hasBody
          ? { payload: typeof inner.body === "string" ? inner.body : JSON.stringify(inner.body) }
          : {}),
      });
      statuses.set(inner.id, response.statusCode);
      const outHeaders: Record<string, string> = {};
      for (const name of ["content-type", "retry-after", "location"]) {
        const value = response.headers[name];
        if (typeof value === "string") outHeaders[name === "retry-after" ? "Retry-After" : name] = value;
      }
      let body: unknown;
      if (response.body !== "") {
        try {
          body = JSON.parse(response.body);
        } catch {
          body = response.body;
        }
      }
      responses.push({
        id: inner.id,
        status: response.statusCode,
        headers: outHeaders,
        ...(body === undefined ? {} : { body }),
      });
    }
    return { responses };
  });
}
