import { decideRetry } from "../../jobs/retry-policy.ts";
import type { ProviderRequestError } from "./errors.ts";

export interface RetrySettings {
  /** Tries inside the client before the error goes to the job layer (first try included). */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A provider delay longer than this is not slept through in-process: the job layer reschedules. */
  maxInlineWaitMs: number;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
}

export const DEFAULT_RETRY: RetrySettings = {
  maxAttempts: 3,
  baseDelayMs: 300,
  maxDelayMs: 5_000,
  maxInlineWaitMs: 30_000,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
};

/**
 * How long to wait before try `attempt + 1` after `error` failed try `attempt` (1-based), or
 * undefined when the client should give up and throw. Same policy as the job layer: full-jitter
 * exponential backoff for transient failures, the provider's delay for rate limits.
 */
export function retryDelay(
  error: ProviderRequestError,
  attempt: number,
  settings: RetrySettings,
): number | undefined {
  if (error.retryAfterMs !== undefined && error.retryAfterMs > settings.maxInlineWaitMs) return undefined;
  const decision = decideRetry({ kind: error.kind, retryAfterMs: error.retryAfterMs }, attempt, {
    maxAttempts: settings.maxAttempts,
    baseDelayMs: settings.baseDelayMs,
    maxDelayMs: settings.maxDelayMs,
    random: settings.random,
  });
  return decision.retry ? decision.delayMs : undefined;
}
