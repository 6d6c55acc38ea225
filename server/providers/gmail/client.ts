import { createProviderHttp, type ProviderHttp, type TokenSource } from "../http/client.ts";
import type { RetrySettings } from "../http/retry.ts";
import { gmailQuotaFor } from "../limiter/registry.ts";
import type { TokenBucket } from "../limiter/token-bucket.ts";
import { GMAIL_UNITS_PER_MINUTE } from "./costs.ts";
import { classifyGmailError } from "./errors.ts";

export interface GmailClientOptions {
  /** `https://gmail.googleapis.com` or the emulator's `{EMU}/gmail.googleapis.com`. */
  baseUrl: string;
  /** Keys the shared per-account quota bucket. */
  accountKey: string;
  token: TokenSource;
  unitsPerMinute?: number;
  /** Pub/Sub topic for users.watch. */
  pushTopic: string;
  timeoutMs?: number;
  retry?: Partial<RetrySettings>;
  /** Calls per batch request; Google allows 100 and discourages more than 50. */
  batchSize?: number;
}

/** Everything the Gmail adapter's parts share: the HTTP client, URLs and the quota bucket. */
export interface GmailContext {
  /** Which mailbox: keys per-account caches (quota, the flag label). */
  accountKey: string;
  http: ProviderHttp;
  quota: TokenBucket;
  /** `{base}/gmail/v1/users/me` */
  api: string;
  /** `{base}/batch/gmail/v1` */
  batchUrl: string;
  batchSize: number;
  pushTopic: string;
}

export function createGmailContext(options: GmailClientOptions): GmailContext {
  const base = options.baseUrl.replace(/(?<!\/)\/+$/, "");
  const quota = gmailQuotaFor(options.accountKey, options.unitsPerMinute ?? GMAIL_UNITS_PER_MINUTE);
  const http = createProviderHttp({
    name: "Gmail",
    token: options.token,
    classify: classifyGmailError,
    // Spend the method's units before calling, so we wait here instead of collecting 429s.
    gate: async (units, run) => {
      await quota.take(units);
      return run();
    },
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.retry === undefined ? {} : { retry: options.retry }),
  });
  return {
    accountKey: `${base} ${options.accountKey}`,
    http,
    quota,
    api: `${base}/gmail/v1/users/me`,
    batchUrl: `${base}/batch/gmail/v1`,
    batchSize: Math.min(100, Math.max(1, options.batchSize ?? 50)),
    pushTopic: options.pushTopic,
  };
}
