import { Semaphore } from "./semaphore.ts";
import { TokenBucket } from "./token-bucket.ts";

/**
 * Per-account limiters shared by every client built in this process (sync jobs, API calls,
 * push handlers), so together they stay inside the provider's per-mailbox limits.
 */
const gmailBuckets = new Map<string, TokenBucket>();
const graphSemaphores = new Map<string, Semaphore>();

/** Gmail's per-user quota as a bucket of `unitsPerMinute` refilled continuously. */
export function gmailQuotaFor(accountKey: string, unitsPerMinute: number): TokenBucket {
  let bucket = gmailBuckets.get(accountKey);
  if (bucket === undefined || bucket.capacity !== unitsPerMinute) {
    bucket = new TokenBucket({ capacity: unitsPerMinute, refillPerMs: unitsPerMinute / 60_000 });
    gmailBuckets.set(accountKey, bucket);
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
