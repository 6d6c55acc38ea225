import { Semaphore } from "./semaphore.ts";
import { TokenBucket } from "./token-bucket.ts";

/**
 * Per-account limiters shared by every client built in this process (sync jobs, API calls,
 * push handlers), so together they stay inside the provider's per-mailbox limits.
 */
const gmailBuckets = new Map<string, TokenBucket>();
const graphSemaphores = new Map<string, Semaphore>();

/**
 * Gmail's per-user quota: refilled at `unitsPerMinute` (15,000 = 250 units a second), with a
 * burst of ten seconds' worth, because Google also enforces the rate as a short moving average
 * and a full minute spent in one burst would still draw 429s.
 */
export function gmailQuotaFor(accountKey: string, unitsPerMinute: number): TokenBucket {
  const key = `${accountKey}@${unitsPerMinute}`;
  let bucket = gmailBuckets.get(key);
  if (bucket === undefined) {
    bucket = new TokenBucket({
      capacity: Math.max(100, unitsPerMinute / 6),
      refillPerMs: unitsPerMinute / 60_000,
    });
    gmailBuckets.set(key, bucket);
  }
  return bucket;
}

/** Outlook allows 4 concurrent requests per app and mailbox. */
export function graphConcurrencyFor(accountKey: string, permits = 4): Semaphore {
  let semaphore = graphSemaphores.get(accountKey);
  if (semaphore === undefined || semaphore.permits !== permits) {
    semaphore = new Semaphore(permits);
    graphSemaphores.set(accountKey, semaphore);
  }
  return semaphore;
}
