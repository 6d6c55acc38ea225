/** The four things a failed job can do next (house style 5). Errors carry the kind; jobs never read messages. */
export type FailureKind = "reauth" | "rate_limit" | "transient" | "permanent";

export interface ClassifiedFailure {
  kind: FailureKind;
  /** For rate limits: the provider's Retry-After, in milliseconds. */
  retryAfterMs?: number;
}

const KINDS: ReadonlySet<string> = new Set(["reauth", "rate_limit", "transient", "permanent"]);

/** Reads the kind an error carries (ProviderError and friends); anything unknown is treated as transient. */
export function classifyFailure(err: unknown): ClassifiedFailure {
  if (
    err &&
    typeof err === "object" &&
    "kind" in err &&
    typeof err.kind === "string" &&
    KINDS.has(err.kind)
  ) {
    const retryAfterMs =
      "retryAfterMs" in err && typeof err.retryAfterMs === "number" && err.retryAfterMs >= 0
        ? err.retryAfterMs
        : undefined;
    return { kind: err.kind as FailureKind, retryAfterMs };
  }
  return { kind: "transient" };
}

export interface RetryDecision {
  retry: boolean;
  delayMs: number;
}

/**
 * Truncated exponential backoff with full jitter for transient failures; the provider's delay
 * (plus a little jitter so workers do not stampede) for rate limits; no retry for reauth or
 * permanent failures, which only a person or a code change can fix.
 */
export function decideRetry(
  failure: ClassifiedFailure,
  attempt: number,
  opts: { maxAttempts: number; baseDelayMs: number; maxDelayMs: number; random?: () => number },
): RetryDecision {
  const random = opts.random ?? Math.random;
  if (failure.kind === "reauth" || failure.kind === "permanent") return { retry: false, delayMs: 0 };
  if (attempt >= opts.maxAttempts) return { retry: false, delayMs: 0 };
  if (failure.kind === "rate_limit") {
    const base = failure.retryAfterMs ?? Math.min(opts.maxDelayMs, opts.baseDelayMs * 2 ** attempt);
    return { retry: true, delayMs: Math.round(base + random() * Math.min(1000, base * 0.1)) };
  }
  const cap = Math.min(opts.maxDelayMs, opts.baseDelayMs * 2 ** attempt);
  return { retry: true, delayMs: Math.round(random() * cap) };
}
