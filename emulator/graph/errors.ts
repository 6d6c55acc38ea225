import { randomUUID } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";

/** Graph's error envelope: `{"error":{"code","message","innerError":{...}}}`. */
export interface GraphErrorBody {
  error: {
    code: string;
    message: string;
    innerError: { date: string; "request-id": string; "client-request-id": string };
  };
}

export function graphRequestIds(request: FastifyRequest): { requestId: string; clientRequestId: string } {
  const header = request.headers["client-request-id"];
  const requestId = randomUUID();
  return { requestId, clientRequestId: typeof header === "string" && header !== "" ? header : requestId };
}

export function graphErrorBody(
  code: string,
  message: string,
  request: FastifyRequest,
  nowMs: number,
): GraphErrorBody {
  const ids = graphRequestIds(request);
  return {
    error: {
      code,
      message,
      innerError: {
        date: new Date(nowMs).toISOString().replace(/\.\d{3}Z$/, ""),
        "request-id": ids.requestId,
        "client-request-id": ids.clientRequestId,
      },
    },
  };
}

export function sendGraphError(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  code: string,
  message: string,
  nowMs: number,
): FastifyReply {
  const body = graphErrorBody(code, message, request, nowMs);
  reply.header("request-id", body.error.innerError["request-id"]);
  reply.header("client-request-id", body.error.innerError["client-request-id"]);
  if (status === 401) {
    reply.header(
      "www-authenticate",
      'Bearer realm="", authorization_uri="https://login.microsoftonline.com/common/oauth2/authorize", client_id="00000003-0000-0000-c000-000000000000"',
    );
  }
  return reply.code(status).send(body);
}
