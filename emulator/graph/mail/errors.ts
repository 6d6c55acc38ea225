import { randomUUID } from "node:crypto";
import type { FastifyReply } from "fastify";

/** Graph's error envelope, with the innerError every real response carries. */
export function graphError(code: string, message: string, now: number): object {
  const id = randomUUID();
  return {
    error: {
      code,
      message,
      innerError: {
        date: new Date(now).toISOString().slice(0, 19),
        "request-id": id,
        "client-request-id": id,
      },
    },
  };
}

export function sendGraphError(
  reply: FastifyReply,
  status: number,
  code: string,
  message: string,
  now: number,
) {
  return reply
    .code(status)
    .header("content-type", "application/json")
    .send(graphError(code, message, now));
}

export const GRAPH_ERRORS = {
  unauthenticated: { status: 401, code: "InvalidAuthenticationToken", message: "Access token is empty." },
  expired: {
    status: 401,
    code: "InvalidAuthenticationToken",
    message: "Lifetime validation failed, the token is expired.",
  },
  invalidToken: {
    status: 401,
    code: "InvalidAuthenticationToken",
    message: "Access token validation failure.",
  },
  accessDenied: {
    status: 403,
    code: "ErrorAccessDenied",
    message: "Access is denied. Check credentials and try again.",
  },
  notFound: {
    status: 404,
    code: "ErrorItemNotFound",
    message: "The specified object was not found in the store.",
  },
  folderNotFound: {
    status: 404,
    code: "ErrorInvalidIdMalformed",
    message: "Id is malformed.",
  },
  syncStateGone: {
    status: 410,
    code: "SyncStateNotFound",
    message: "The sync state generation is not found or has been removed. Please start a new sync.",
  },
  unavailable: {
    status: 503,
    code: "ServiceUnavailable",
    message: "The service is temporarily unavailable.",
  },
} as const;

export type GraphErrorKey = keyof typeof GRAPH_ERRORS;

export function sendKnownGraphError(reply: FastifyReply, key: GraphErrorKey, now: number) {
  const error = GRAPH_ERRORS[key];
  return sendGraphError(reply, error.status, error.code, error.message, now);
}
