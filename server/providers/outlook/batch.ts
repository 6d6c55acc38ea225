import { runBatchWithRetries } from "../http/batch-retry.ts";
import type { ProviderRequestError } from "../http/errors.ts";
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

/** Runs calls through `/$batch`, 20 at a time (see runBatchWithRetries). */
export function runGraphBatch(
  ctx: OutlookContext,
  calls: readonly GraphCall[],
): Promise<Map<string, GraphAnswer>> {
  return runBatchWithRetries(calls, {
    provider: "Graph",
    chunkSize: GRAPH_BATCH_LIMIT,
    http: ctx.http,
    send: (chunk) => sendOnce(ctx, chunk),
    classify: graphAnswerError,
  });
}

/** The error of a failed inner answer, for callers that cannot accept it. */
export function graphAnswerError(answer: GraphAnswer): ProviderRequestError {
  return classifyGraphError({
    status: answer.status,
    headers: answer.headers,
    text: JSON.stringify(answer.body ?? {}),
  });
}
