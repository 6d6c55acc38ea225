import { ProviderRequestError } from "../http/errors.ts";
import { retryDelay } from "../http/retry.ts";
import { type BatchAnswer, type BatchCall, boundaryOf, decodeBatch, encodeBatch } from "./batch-wire.ts";
import type { GmailContext } from "./client.ts";
import { classifyGmailError } from "./errors.ts";

export interface CostedCall extends BatchCall {
  /** Quota units of the inner method (Google charges each call of a batch). */
  cost: number;
}

async function sendOnce(ctx: GmailContext, calls: readonly CostedCall[]): Promise<Map<string, BatchAnswer>> {
  const { boundary, body } = encodeBatch(calls);
  const response = await ctx.http.request({
    method: "POST",
    url: ctx.batchUrl,
    headers: { "content-type": `multipart/mixed; boundary=${boundary}` },
    body,
    weight: calls.reduce((sum, call) => sum + call.cost, 0),
  });
  const answerBoundary = boundaryOf(response.headers.get("content-type"));
  if (answerBoundary === undefined) {
    throw new ProviderRequestError("transient", "Gmail batch answer is not multipart", {
      status: response.status,
    });
  }
  return decodeBatch(response.text, answerBoundary);
}

/**
 * Runs calls through the batch endpoint, `ctx.batchSize` at a time. A 200 batch can hold failed
 * parts: 401 parts get one forced token refresh, 429/5xx parts are retried with the same backoff
 * as whole requests, and whatever still fails after the last try throws. Other answers (2xx,
 * 404, 400) are returned for the caller to read.
 */
export async function runBatch(
  ctx: GmailContext,
  calls: readonly CostedCall[],
): Promise<Map<string, BatchAnswer>> {
  const results = new Map<string, BatchAnswer>();
  for (let start = 0; start < calls.length; start += ctx.batchSize) {
    let pending = calls.slice(start, start + ctx.batchSize);
    let refreshed = false;
    for (let attempt = 1; pending.length > 0; attempt += 1) {
      const answers = await sendOnce(ctx, pending);
      const again: CostedCall[] = [];
      let failure: ProviderRequestError | undefined;
      let unauthorized = false;
      for (const call of pending) {
        const answer = answers.get(call.id);
        if (answer === undefined) {
          again.push(call);
          failure ??= new ProviderRequestError("transient", "Gmail batch answer is missing a part");
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
        const error = classifyGmailError(answer);
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
        if (refreshed)
          throw new ProviderRequestError("reauth", "Gmail refused the refreshed token", { status: 401 });
        refreshed = true;
        await ctx.http.token({ forceRefresh: true });
        attempt -= 1;
        continue;
      }
      const reason = failure ?? new ProviderRequestError("transient", "Gmail batch part failed");
      const delay = retryDelay(reason, attempt, ctx.http.retry);
      if (delay === undefined) throw reason;
      await ctx.http.retry.sleep(delay);
    }
  }
  return results;
}
