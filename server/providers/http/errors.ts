import { ProviderError, type ProviderFailureKind } from "../../auth/errors.ts";

/** What a failed provider call told us, beyond its kind. Never carries tokens or mail content. */
export interface ProviderFailureDetails {
  /** HTTP status, when the provider answered at all. */
  status?: number;
  /** The provider's own error id: Gmail `errors[0].reason`, Graph `error.code`. */
  reason?: string;
  /** For rate limits: how long the provider asked us to wait (Retry-After, or our estimate). */
  retryAfterMs?: number;
}

/**
 * A ProviderError from a mail API call. `kind` drives retries (house style 5); `retryAfterMs`
 * is read by the job layer's classifyFailure, so a job waits as long as the provider asked.
 */
export class ProviderRequestError extends ProviderError {
  override name = "ProviderRequestError";
  readonly status: number | undefined;
  readonly reason: string | undefined;
  readonly retryAfterMs: number | undefined;

  constructor(
    kind: ProviderFailureKind,
    message: string,
    details: ProviderFailureDetails = {},
    options?: { cause?: unknown },
  ) {
    super(kind, message, undefined, options);
    this.status = details.status;
    this.reason = details.reason;
    this.retryAfterMs = details.retryAfterMs;
  }
}

/** The status of a provider failure, if it was an HTTP answer. */
export function failureStatus(err: unknown): number | undefined {
  return err instanceof ProviderRequestError ? err.status : undefined;
}
