import { createProviderHttp, type ProviderHttp, type TokenSource } from "../http/client.ts";
import { ProviderRequestError } from "../http/errors.ts";
import type { RetrySettings } from "../http/retry.ts";
import { graphConcurrencyFor } from "../limiter/registry.ts";
import type { Address } from "../mail-provider.ts";
import { classifyGraphError } from "./errors.ts";

export interface OutlookClientOptions {
  /** `https://graph.microsoft.com` or the emulator's `{EMU}/graph.microsoft.com`. */
  baseUrl: string;
  /** Keys the shared per-mailbox concurrency limit. */
  accountKey: string;
  token: TokenSource;
  timeoutMs?: number;
  retry?: Partial<RetrySettings>;
  /** Outlook's limit is 4 concurrent requests per app and mailbox. */
  maxConcurrent?: number;
  /** The mailbox's address and name, for the From header of a message sent as MIME. */
  from?: Address;
}

export interface OutlookContext {
  http: ProviderHttp;
  /** `{base}/v1.0` */
  api: string;
  /** Permits a $batch takes: all of them, as its inner requests count against the same limit. */
  batchWeight: number;
  /** Well-known folder name -> folder id, learned once per client. */
  folderIds: Map<string, string>;
  from: Address | undefined;
}

export function createOutlookContext(options: OutlookClientOptions): OutlookContext {
  const api = `${options.baseUrl.replace(/(?<!\/)\/+$/, "")}/v1.0`;
  const permits = options.maxConcurrent ?? 4;
  const semaphore = graphConcurrencyFor(options.accountKey, permits);
  const http = createProviderHttp({
    name: "Graph",
    token: options.token,
    classify: classifyGraphError,
    gate: (weight, run) => semaphore.run(weight, run),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.retry === undefined ? {} : { retry: options.retry }),
  });
  return { http, api, batchWeight: permits, folderIds: new Map(), from: options.from };
}

/** Graph ids go into URL paths: refuse anything that is not an id instead of escaping it into a path. */
export function checkGraphId(id: string): string {
  if (!/^[A-Za-z0-9=_+/-]{1,512}$/.test(id))
    throw new ProviderRequestError("permanent", "invalid Graph message id");
  return encodeURIComponent(id);
}

/**
 * @odata.nextLink / deltaLink are followed as-is, but only to the Graph host we were configured
 * with: a page token or cursor from storage must never send our bearer token elsewhere.
 */
export function checkGraphLink(ctx: OutlookContext, link: string): string {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    throw new ProviderRequestError("permanent", "Graph link is not a URL");
  }
  const api = new URL(ctx.api);
  if (url.origin !== api.origin || !url.pathname.startsWith(`${api.pathname}/`)) {
    throw new ProviderRequestError("permanent", "Graph link points outside the Graph API");
  }
  return url.href;
}
