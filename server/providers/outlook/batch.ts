import { ProviderRequestError } from "../http/errors.ts";
import { retryDelay } from "../http/retry.ts";
import type { OutlookContext } from "./client.ts";
import { classifyGraphError } from "./errors.ts";

/** Graph's JSON batching takes at most 20 requests. */
export const GRAPH_BATCH_LIMIT = 20;

export interface GraphCall {
  id: string;
  method: "GET" | "POST" | "PATCH" | "DELETE";
  /** Relative to /v1.0, e.g. `/me/messages/{id}`. */
  url: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface GraphAnswer {
  status: number;
  headers: Headers;
  body: unknown;
}

interface BatchResponse {
  responses?: { id?: unknown; status?: unknown; headers?: Record<string, string>; body?: unknown }[];
}

async function sendOnce(ctx: OutlookContext, calls: readonly GraphCall[]): Promise<Map<string, GraphAnswer>> {
  const answer = await ctx.http.json<BatchResponse>({
    method: "POST",
    url: `${ctx.api}/$batch`,
    body: {
      requests: calls.map((call) => ({
        id: call.id,
        method: call.method,
        url: call.url,
        ...(call.body === undefined
          ? {}
          : { body: call.body, headers: { "content-type": "application/json", ...call.headers } }),
        ...(call.body === undefined && call.headers ? { headers: call.headers } : {}),
      })),
    },
    weight: ctx.batchWeight,
  });
  const out = new Map<string, GraphAnswer>();
  for (const response of answer?.responses ?? []) {
    if (typeof response.id !== "string" || typeof response.status !== "number") continue;
    out.set(response.id, {
      status: response.status,
      headers: new Headers(response.headers ?? {}),
      body: response.body,
    });
  }
  return out;
}

/**
 * Runs calls through `/$batch`, 20 at a time. Inner answers can fail on their own inside a 200:
 * 401 gets one forced token refresh, 429/5xx are retried after the longest Retry-After any of
 * them gave (or backoff), and what still fails after the last try throws. 2xx and other 4xx
 * answers are returned for the caller to read.
 */
export async function runGraphBatch(
  ctx: OutlookContext,
  calls: readonly GraphCall[],
): Promise<Map<string, GraphAnswer>> {
  const results = new Map<string, GraphAnswer>();
  for (let start = 0; start < calls.length; start += GRAPH_BATCH_LIMIT) {
    let pending = calls.slice(start, start + GRAPH_BATCH_LIMIT);
    let refreshed = false;
    for (let attempt = 1; pending.length > 0; attempt += 1) {
      const answers = await sendOnce(ctx, pending);
      const again: GraphCall[] = [];
      let failure: ProviderRequestError | undefined;
      let unauthorized = false;
      for (const call of pending) {
        const answer = answers.get(call.id);
        if (answer === undefined) {
          again.push(call);
          failure ??= new ProviderRequestError("transient", "Graph batch answer is missing a response");
          continue;
        }
        if (answer.status === 401) {
          unauthorized = true;
          again.push(call);
          continue;
        }
        if (answer.status < 300) {
          results.set(call.id, answer);
          continue;
        }
        const error = graphAnswerError(answer);
        if (error.kind === "transient" || error.kind === "rate_limit") {
          again.push(call);
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
          throw new ProviderRequestError("reauth", "Graph refused the refreshed token", { status: 401 });
        refreshed = true;
        await ctx.http.token({ forceRefresh: true });
        attempt -= 1;
        continue;
      }
      const reason = failure ?? new ProviderRequestError("transient", "Graph batch request failed");
      const delay = retryDelay(reason, attempt, ctx.http.retry);
      if (delay === undefined) throw reason;
      await ctx.http.retry.sleep(delay);
    }
  }
  return results;
}

/** The error of a failed inner answer, for callers that cannot accept it. */
export function graphAnswerError(answer: GraphAnswer): ProviderRequestError {
  return classifyGraphError({
    status: answer.status,
    headers: answer.headers,
    text: JSON.stringify(answer.body ?? {}),
  });
}
