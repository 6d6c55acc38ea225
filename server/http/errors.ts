import type { ErrorCode } from "../../contract/errors.ts";

/** A failure a service can explain to the user. Only the HTTP layer turns the code into a status. */
export class DomainError extends Error {
  override name = "DomainError";
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
    /** Sent as Retry-After (seconds) with the error. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

const statusByCode: Record<ErrorCode, number> = {
  bad_request: 400,
  validation_failed: 400,
  json_too_deep: 400,
  unauthorized: 401,
  session_expired: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  uri_too_long: 414,
  request_timeout: 408,
  headers_too_large: 431,
  unsupported_media_type: 415,
  rate_limited: 429,
  ai_budget_exceeded: 429,
  provider_reauth_required: 409,
  provider_unavailable: 502,
  provider_timeout: 504,
  attachment_not_found: 404,
  invalid_link: 403,
  service_unavailable: 503,
  storage_full: 503,
  internal: 500,
};

export function httpStatusFor(code: ErrorCode): number {
  return statusByCode[code];
}
