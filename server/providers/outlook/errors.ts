import type { ProviderFailureKind } from "../../auth/errors.ts";
import type { ProviderResponse } from "../http/client.ts";
import { ProviderRequestError } from "../http/errors.ts";
import { parseRetryAfter } from "../http/retry-after.ts";

/** Graph throttles without Retry-After now and then; wait a few seconds before the next try. */
const DEFAULT_THROTTLE_MS = 2_000;

function codeOf(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { error?: { code?: unknown } };
    return typeof body.error?.code === "string" ? body.error.code : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Sorts a Graph error answer (house style 5): 429, and 503 with Retry-After, are rate limits
 * that carry the provider's delay; other 5xx are transient; 401 (after our forced refresh) and
 * 403 access denied need a new consent; 404 and 410 stay permanent for callers to read the status
 * (410 on delta = CursorExpiredError, 404 on a message = gone).
 */
export function classifyGraphError(
  response: Pick<ProviderResponse, "status" | "headers" | "text">,
): ProviderRequestError {
  const { status } = response;
  const reason = codeOf(response.text);
  const retryAfter = parseRetryAfter(response.headers.get("retry-after"), Date.now());
  let kind: ProviderFailureKind;
  let retryAfterMs: number | undefined;
  if (status === 429 || (status === 503 && retryAfter !== undefined)) {
    kind = "rate_limit";
    retryAfterMs = retryAfter ?? DEFAULT_THROTTLE_MS;
  } else if (status >= 500 || status === 408) {
    kind = "transient";
  } else if (status === 401 || (status === 403 && reason === "ErrorAccessDenied")) {
    kind = "reauth";
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
    `Graph answered HTTP ${status}${reason ? ` (${reason})` : ""}`,
    details,
  );
}
