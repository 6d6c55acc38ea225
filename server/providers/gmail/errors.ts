import type { ProviderFailureKind } from "../../auth/errors.ts";
import type { ProviderResponse } from "../http/client.ts";
import { ProviderRequestError } from "../http/errors.ts";
import { parseRetryAfter } from "../http/retry-after.ts";

/** Google resets the daily quota at midnight Pacific; an hour is a polite first wait. */
export const DAILY_LIMIT_RETRY_MS = 60 * 60_000;
/** Without Retry-After, per-minute quota frees up within a minute at most. */
const PER_MINUTE_RETRY_MS = 2_000;

const RATE_REASONS = new Set([
  "rateLimitExceeded",
  "userRateLimitExceeded",
  "quotaExceeded",
  "concurrentLimitExceeded",
]);
/** The grant lacks a scope we need: only a new consent fixes it. */
const REAUTH_REASONS = new Set(["insufficientPermissions", "authError"]);

interface GoogleErrorBody {
  error?: {
    code?: number;
    message?: string;
    errors?: { reason?: string; domain?: string }[];
    status?: string;
  };
}

function reasonOf(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as GoogleErrorBody;
    return body.error?.errors?.[0]?.reason ?? body.error?.status;
  } catch {
    return undefined;
  }
}

/**
 * Sorts a Gmail error answer by what to do next (house style 5). 401 reaches here only after
 * the forced refresh failed too, so it means reauth. 404 stays permanent: callers that know
 * better (history.list -> CursorExpiredError, messages.get -> gone) check the status.
 */
export function classifyGmailError(
  response: Pick<ProviderResponse, "status" | "headers" | "text">,
): ProviderRequestError {
  const { status } = response;
  const reason = reasonOf(response.text);
  const retryAfter = parseRetryAfter(response.headers.get("retry-after"), Date.now());
  let kind: ProviderFailureKind;
  let retryAfterMs: number | undefined;
  if (reason === "dailyLimitExceeded") {
    kind = "rate_limit";
    retryAfterMs = retryAfter ?? DAILY_LIMIT_RETRY_MS;
  } else if (
    status === 429 ||
    ((status === 403 || status === 400) && reason !== undefined && RATE_REASONS.has(reason))
  ) {
    kind = "rate_limit";
    retryAfterMs = retryAfter ?? PER_MINUTE_RETRY_MS;
  } else if (status === 401 || (status === 403 && reason !== undefined && REAUTH_REASONS.has(reason))) {
    kind = "reauth";
  } else if (status >= 500 || status === 408) {
    kind = "transient";
    retryAfterMs = retryAfter;
  } else {
    kind = "permanent";
  }
  const details = {
    status,
    ...(reason === undefined ? {} : { reason }),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  };
  return new ProviderRequestError(
    kind,
    `Gmail answered HTTP ${status}${reason ? ` (${reason})` : ""}`,
    details,
  );
}
