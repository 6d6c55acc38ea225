import { ProviderError, toProviderError } from "../../auth/errors.ts";
import { providerDeadline } from "./deadline.ts";
import { ProviderRequestError } from "./errors.ts";
import { DEFAULT_RETRY, type RetrySettings, retryDelay } from "./retry.ts";

/** Hands out the account's access token; `forceRefresh` after the provider refused one (401). */
export type TokenSource = (options?: { forceRefresh?: boolean }) => Promise<string>;

export interface ProviderResponse {
  status: number;
  headers: Headers;
  text: string;
  /** Set by stream() on a 2xx answer: the body, not yet read (text is then ""). */
  body?: ReadableStream<Uint8Array> | null;
}

export interface ProviderRequest {
  method: "GET" | "POST" | "PATCH" | "DELETE" | "PUT";
  url: string;
  headers?: Record<string, string>;
  /** JSON bodies are serialised; strings and bytes are sent as they are (give content-type yourself). */
  body?: unknown;
  /** Passed to the gate: Gmail quota units, or Graph concurrency permits. */
  weight?: number;
  /**
   * Not repeated here when it fails, except on a rate limit (a send: after a timeout or a 5xx it
   * may have gone out, and a second try would send it twice). The caller retries knowingly: held mail first asks the provider
   * for its Message-ID (server/mail/outbox/). A 401's one refresh-and-retry still applies.
   */
  once?: boolean;
}

/** Wraps each try of a request: the per-account limiter (quota bucket or concurrency semaphore). */
export type Gate = <T>(weight: number, run: () => Promise<T>) => Promise<T>;

export interface ProviderHttpOptions {
  /** For error messages only ("gmail messages.list"). */
  name: string;
  token: TokenSource;
  /** Sorts a non-2xx answer into a ProviderRequestError (provider-specific bodies). */
  classify: (response: ProviderResponse) => ProviderRequestError;
  gate?: Gate;
  timeoutMs?: number;
  retry?: Partial<RetrySettings>;
  fetch?: typeof fetch;
}

export interface ProviderHttp {
  /** One call with auth, timeout, limiter and retries; throws ProviderRequestError on failure. */
  request(request: ProviderRequest): Promise<ProviderResponse>;
  /**
   * request() that leaves a 2xx body unread (`body`), for downloads: the per-try timeout covers
   * the wait for the answer's headers only; the caller bounds the body's pace itself.
   */
  stream(request: ProviderRequest): Promise<ProviderResponse>;
  /** request() and JSON.parse of the answer (undefined for an empty body). */
  json<T>(request: ProviderRequest): Promise<T>;
  /** The account's token, refreshed when `forceRefresh` (batch parts that came back 401). */
  token: TokenSource;
  readonly retry: RetrySettings;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/** Throws instead of starting a request once the caller's deadline (withProviderDeadline) passed. */
function abandonAfter(deadline: AbortSignal | undefined): void {
  if (deadline?.aborted) {
    throw new ProviderRequestError(
      "transient",
      "abandoned: the caller's deadline passed",
      {},
      {
        cause: deadline.reason,
      },
    );
  }
}

/** Unwraps the DomainError the token service throws into the ProviderError it carries. */
export function tokenFailure(err: unknown): ProviderError {
  if (err instanceof ProviderError) return err;
  if (err instanceof Error && err.cause instanceof ProviderError) return err.cause;
  if (err instanceof Error && "code" in err && err.code === "provider_reauth_required") {
    return new ProviderError("reauth", "access token unavailable", undefined, { cause: err });
  }
  return new ProviderError("transient", "access token unavailable", undefined, { cause: err });
}

/**
 * The shared provider HTTP client: bearer token, a timeout on every try, the account's limiter,
 * one forced token refresh on 401, and up to `maxAttempts` tries for transient failures and
 * rate limits (honouring Retry-After). What is left is thrown as a ProviderRequestError so the
 * job layer decides by its kind. Nothing here logs: tokens and mail never reach a log line.
 */
export function createProviderHttp(options: ProviderHttpOptions): ProviderHttp {
  const retry: RetrySettings = { ...DEFAULT_RETRY, ...options.retry };
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const doFetch = options.fetch ?? fetch;
  const gate: Gate = options.gate ?? ((_weight, run) => run());

  async function token(opts?: { forceRefresh?: boolean }): Promise<string> {
    try {
      return await options.token(opts);
    } catch (err) {
      throw tokenFailure(err);
    }
  }

  async function once(
    request: ProviderRequest,
    accessToken: string,
    keepBody = false,
  ): Promise<ProviderResponse> {
    const headers: Record<string, string> = { ...request.headers, authorization: `Bearer ${accessToken}` };
    let body: string | Uint8Array | undefined;
    if (typeof request.body === "string" || request.body instanceof Uint8Array) body = request.body;
    else if (request.body !== undefined) {
      body = JSON.stringify(request.body);
      headers["content-type"] ??= "application/json";
    }
    const deadline = providerDeadline();
    return gate(request.weight ?? 1, async () => {
      try {
        abandonAfter(deadline);
        // A download's body may take longer than one try may wait: its timer stops at the headers.
        const perTry = new AbortController();
        const timer = setTimeout(
          () => perTry.abort(new DOMException("provider timed out", "TimeoutError")),
          timeoutMs,
        );
        try {
          const response = await doFetch(request.url, {
            method: request.method,
            headers,
            body,
            redirect: "manual",
            signal: deadline ? AbortSignal.any([perTry.signal, deadline]) : perTry.signal,
          });
          if (keepBody && response.status >= 200 && response.status < 300) {
            clearTimeout(timer);
            return { status: response.status, headers: response.headers, text: "", body: response.body };
          }
          return { status: response.status, headers: response.headers, text: await response.text() };
        } finally {
          clearTimeout(timer);
        }
      } catch (err) {
        const failure = toProviderError(err, `${options.name} ${request.method}`);
        throw new ProviderRequestError(failure.kind, failure.message, {}, { cause: err });
      }
    });
  }

  async function request(request: ProviderRequest, keepBody = false): Promise<ProviderResponse> {
    let accessToken = await token();
    let refreshed = false;
    for (let attempt = 1; ; attempt += 1) {
      let failure: ProviderRequestError;
      try {
        const response = await once(request, accessToken, keepBody);
        if (response.status >= 200 && response.status < 300) return response;
        if (response.status === 401 && !refreshed) {
          // The token died before its stated expiry: refresh once and try again at no attempt cost.
          refreshed = true;
          accessToken = await token({ forceRefresh: true });
          attempt -= 1;
          continue;
        }
        failure = options.classify(response);
      } catch (err) {
        if (!(err instanceof ProviderRequestError)) throw err;
        failure = err;
      }
      // A rate limit is a refusal before anything was done: safe to repeat even for a send.
      const delay =
        request.once && failure.kind !== "rate_limit" ? undefined : retryDelay(failure, attempt, retry);
      if (delay === undefined || providerDeadline()?.aborted) throw failure;
      await retry.sleep(delay);
      abandonAfter(providerDeadline());
    }
  }

  return {
    request: (req) => request(req),
    stream: (req) => request(req, true),
    async json<T>(req: ProviderRequest): Promise<T> {
      const response = await request(req);
      if (response.text.trim() === "") return undefined as T;
      try {
        return JSON.parse(response.text) as T;
      } catch (err) {
        throw new ProviderRequestError(
          "transient",
          `${options.name}: unreadable answer`,
          { status: response.status },
          { cause: err },
        );
      }
    },
    token,
    retry,
  };
}
