import type { FastifyError, FastifyInstance } from "fastify";
import type { ApiErrorBody, ErrorCode } from "../../contract/errors.ts";
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

/** The one error handler: every failure leaves the API as {error:{code,message}}. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof DomainError) {
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
