import { runBatchWithRetries } from "../http/batch-retry.ts";
import { ProviderRequestError } from "../http/errors.ts";
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
 * Batch requests of one call in flight at once. Gmail answers a batch of 50 full messages in a few
 * hundred milliseconds; sent one after another, a 500-message backfill page waited for ten round
 * trips. Quota is still spent through the account's limiter, which weighs every inner call.
 */
const BATCH_CONCURRENCY = 3;

/** Runs calls through Gmail's batch endpoint, `ctx.batchSize` at a time (see runBatchWithRetries). */
export function runBatch(ctx: GmailContext, calls: readonly CostedCall[]): Promise<Map<string, BatchAnswer>> {
  return runBatchWithRetries(calls, {
    provider: "Gmail",
    chunkSize: ctx.batchSize,
    concurrency: BATCH_CONCURRENCY,
    http: ctx.http,
    send: (chunk) => sendOnce(ctx, chunk),
    classify: classifyGmailError,
  });
}
