import type { ProviderHttp } from "./client.ts";
import { providerDeadline } from "./deadline.ts";
import { ProviderRequestError } from "./errors.ts";
import { retryDelay } from "./retry.ts";

export interface BatchRetryOptions<C extends { id: string }, A extends { status: number }> {
  /** "Gmail" or "Graph", for error messages. */
  provider: string;
  chunkSize: number;
  /** Batch requests in flight at once (default 1). */
  concurrency?: number;
  http: Pick<ProviderHttp, "token" | "retry">;
  /** One batch request; answers keyed by call id. */
  send(calls: readonly C[]): Promise<Map<string, A>>;
  /** The error an inner failed answer stands for. */
  classify(answer: A): ProviderRequestError;
}

/**
 * Runs calls through a provider's batch endpoint, `chunkSize` at a time, `concurrency` batches
 * in flight (their answers are merged by call id, so order does not matter). A 200 batch can hold
 * failed parts: 401 parts get one forced token refresh, 429/5xx parts (and missing ones) are
 * retried after the longest delay any of them asked for (or backoff), and whatever still fails
 * after the last try throws. Other answers (2xx, 404, 400) are returned for the caller to read.
 */
export async function runBatchWithRetries<C extends { id: string }, A extends { status: number }>(
  calls: readonly C[],
  options: BatchRetryOptions<C, A>,
): Promise<Map<string, A>> {
  const { provider, http } = options;
  const results = new Map<string, A>();
  const chunks: C[][] = [];
  for (let start = 0; start < calls.length; start += options.chunkSize) {
    chunks.push(calls.slice(start, start + options.chunkSize));
  }
  let next = 0;
  let failed = false;
  const lanes = Math.max(1, Math.min(options.concurrency ?? 1, chunks.length));
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (!failed && next < chunks.length) {
        const chunk = chunks[next++] as C[];
        try {
          await runChunk(chunk);
        } catch (err) {
          // The other lanes stop taking chunks: the whole call fails with this error.
          failed = true;
          throw err;
        }
      }
    }),
  );
  return results;

  async function runChunk(chunk: C[]): Promise<void> {
    let pending = chunk;
    let refreshed = false;
    for (let attempt = 1; pending.length > 0; attempt += 1) {
      const answers = await options.send(pending);
      const again: C[] = [];
      let failure: ProviderRequestError | undefined;
      let unauthorized = false;
      for (const call of pending) {
        const answer = answers.get(call.id);
        if (answer === undefined) {
          again.push(call);
          failure ??= new ProviderRequestError("transient", `${provider} batch answer is missing a part`);
          continue;
        }
        if (answer.status === 401) {
          unauthorized = true;
          again.push(call);
          continue;
        }
        if (answer.status >= 200 && answer.status < 300) {
          results.set(call.id, answer);
          continue;
        }
        const error = options.classify(answer);
        if (error.kind === "transient" || error.kind === "rate_limit") {
          again.push(call);
          // Keep the longest wait any part asked for.
          if (failure === undefined || (error.retryAfterMs ?? 0) > (failure.retryAfterMs ?? 0))
            failure = error;
        } else if (error.kind === "reauth") {
          throw error;
        } else {
          results.set(call.id, answer);
        }
      }
      if (again.length === 0) break;
      pending = again;
      if (unauthorized) {
        if (refreshed) {
          throw new ProviderRequestError("reauth", `${provider} refused the refreshed token`, {
            status: 401,
          });
        }
        refreshed = true;
        await http.token({ forceRefresh: true });
        attempt -= 1;
        continue;
      }
      const reason = failure ?? new ProviderRequestError("transient", `${provider} batch part failed`);
      const delay = retryDelay(reason, attempt, http.retry);
      if (delay === undefined || providerDeadline()?.aborted) throw reason;
      await http.retry.sleep(delay);
    }
  }
}
