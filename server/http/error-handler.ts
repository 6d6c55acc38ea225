import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ApiErrorBody, ErrorCode } from "../../contract/errors.ts";
import { isConnectionError } from "../db/connection-errors.ts";
import { isStorageFullError } from "../db/storage-errors.ts";
import { DomainError, httpStatusFor } from "./errors.ts";

function body(code: ErrorCode, message: string, fields?: Record<string, string>): ApiErrorBody {
  return { error: fields ? { code, message, fields } : { code, message } };
}

/** Maps Fastify's own 4xx errors to stable codes so clients never see a raw framework error. */
function codeForFrameworkError(err: FastifyError): ErrorCode | undefined {
  switch (err.code) {
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return "unsupported_media_type";
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return "payload_too_large";
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
    case "FST_ERR_CTP_INVALID_JSON_BODY":
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return "bad_request";
    default:
      break;
  }
  if (err.statusCode === 429) return "rate_limited";
  if (err.statusCode === 404) return "not_found";
  if (err.statusCode === 405) return "method_not_allowed";
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) return "bad_request";
  return undefined;
}

/** What a client is told while the database's disk is full; the episode itself is logged once, not per request. */
export const STORAGE_FULL_MESSAGE =
  "The server's storage is full, so nothing can be saved right now. It resumes by itself once space is freed.";
/** Probes find free space again within a few seconds (decision 0053). */
const STORAGE_FULL_RETRY_AFTER_SECONDS = 5;

/**
 * The one error handler: every failure leaves the API as {error:{code,message}}. `storageFull`
 * says whether a full-disk episode is on: a database that cannot even be reached meanwhile (a
 * PostgreSQL server that stopped when its WAL could not grow) is the same story for the client.
 */
export function registerErrorHandling(app: FastifyInstance, storageFull: () => boolean = () => false): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (isStorageFullError(err) || (isConnectionError(err) && storageFull())) {
      reply.header("retry-after", String(STORAGE_FULL_RETRY_AFTER_SECONDS));
      return reply.status(httpStatusFor("storage_full")).send(body("storage_full", STORAGE_FULL_MESSAGE));
    }
    if (err instanceof DomainError) {
      if (err.retryAfterSeconds !== undefined) reply.header("retry-after", String(err.retryAfterSeconds));
      return reply.status(httpStatusFor(err.code)).send(body(err.code, err.message, err.fields));
    }
    if (err.validation) {
      const fields: Record<string, string> = {};
      for (const v of err.validation) {
        const key =
          v.instancePath.replace(/^\//, "").replaceAll("/", ".") ||
          String(v.params?.missingProperty ?? "body");
        fields[key] = v.message ?? "is invalid";
      }
      return reply.status(400).send(body("validation_failed", err.message, fields));
    }
    const code = codeForFrameworkError(err);
    if (code) {
      return reply.status(err.statusCode ?? httpStatusFor(code)).send(body(code, err.message));
    }
    request.log.error({ err }, "unhandled error");
    return reply.status(500).send(body("internal", "Something went wrong on our side. Please try again."));
  });
}

/**
 * Errors the router raises before any route or hook runs (a malformed percent-escape, a path
 * parameter over the length limit): Fastify's `frameworkErrors` option, in the API's shape.
 */
export function frameworkErrors(err: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  if (err.code === "FST_ERR_MAX_PARAM_LENGTH") {
    void reply.status(414).send(body("uri_too_long", "The address is too long."));
    return;
  }
  if (err.code === "FST_ERR_BAD_URL") {
    void reply.status(400).send(body("bad_request", "The address is not valid."));
    return;
  }
  void reply.status(500).send(body("internal", "Something went wrong on our side. Please try again."));
}

/**
 * Requests Node's HTTP parser refuses (headers too large, a timeout, a malformed request line)
 * never reach Fastify; they are answered on the socket, in the API's shape too.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === "ECONNRESET" || socket.destroyed) return;
  const [status, code, message]: [number, ErrorCode, string] =
    err.code === "ERR_HTTP_REQUEST_TIMEOUT"
      ? [408, "request_timeout", "The request took too long to arrive."]
      : err.code === "HPE_HEADER_OVERFLOW"
        ? [431, "headers_too_large", "The request headers are too large."]
        : [400, "bad_request", "The request is malformed."];
  const text = JSON.stringify(body(code, message));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(text)}\r\nContent-Type: application/json; charset=utf-8\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${text}`,
    );
  }
  socket.destroy(err);
}
