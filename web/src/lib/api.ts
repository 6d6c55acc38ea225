import type { ApiErrorBody } from "../../../contract/errors.ts";
import {
  browserOffline,
  OFFLINE_CODE,
  OFFLINE_MESSAGE,
  reportAnswer,
  reportNetworkFailure,
} from "./connectivity.ts";
import { forgetAnswers, keepAnswer, keptData, keptEtag } from "./etag-memory.ts";
import { clearPersistedQueries } from "./persisted-queries.ts";
import {
  AUTH_FAILURE_REASON_KEY,
  type AuthFailureReason,
  LEGACY_SESSION_TOKEN_KEY,
  readSessionToken,
  SESSION_TOKEN_KEY,
} from "./storage-keys.ts";

/** A non-2xx answer. `code` is the server's stable error id when it sent one. */
export class ApiError extends Error {
  override name = "ApiError";
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

/** An action refused because there is no network (issue 38): it was not sent and is not queued. */
export function offlineError(): ApiError {
  return new ApiError(0, OFFLINE_MESSAGE, OFFLINE_CODE);
}

export function isOfflineError(error: unknown): boolean {
  return error instanceof ApiError && error.code === OFFLINE_CODE;
}

/** Fired in this tab when the stored token changes (the storage event only reaches other tabs). */
export const SESSION_TOKEN_EVENT = "mailwise:session-token";

/** Spec section 8: the 401 reason comes from the message text. */
export function reasonFor401(message: string): Exclude<AuthFailureReason, "manual"> {
  if (message.includes("expired") || message.includes("invalidated")) return "session_expired";
  if (message.includes("No session token")) return "auth_required";
  return "token_invalid";
}

type UnauthorizedHandler = (reason: Exclude<AuthFailureReason, "manual">) => void;

let onUnauthorized: UnauthorizedHandler = () => {
  window.location.assign("/login");
};

/** The session layer installs its handler (clear caches, client-side navigation). */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): void {
  onUnauthorized = handler;
}

async function readErrorMessage(res: Response): Promise<{ message: string; code?: string }> {
  const text = await res.text().catch(() => "");
  try {
    // A hand check instead of the zod schema keeps zod out of the public pages' bundle.
    const parsed = JSON.parse(text) as Partial<ApiErrorBody> | null;
    const err = parsed?.error;
    if (err && typeof err.message === "string") return { message: err.message, code: err.code };
  } catch {
    // not JSON: fall through to the raw text
  }
  return { message: `${res.status}: ${text || res.statusText}` };
}

function handle401(message: string): void {
  const reason = reasonFor401(message);
  // A 401 after this tab's token is already gone belongs to a session that has already ended:
  // calls sent before the first 401 was handled, whose bodies are often cut short when the
  // sign-out cancels them (so they read as a bare "401: Unauthorized").
  const sessionAlreadyEnded = readSessionToken() === null;
  try {
    localStorage.removeItem(SESSION_TOKEN_KEY);
    localStorage.removeItem(LEGACY_SESSION_TOKEN_KEY);
    clearPersistedQueries();
    forgetAnswers();
    // Calls that set out after the token was removed come back "No session token". When the
    // session has just ended they must not replace its reason: the login page would then show
    // no "Session Expired" toast (several queries fail at once when a session expires).
    const earlier = sessionStorage.getItem(AUTH_FAILURE_REASON_KEY);
    // Those must not replace its reason either, or the login page shows the wrong toast or none.
    const keepEarlier =
      (reason === "auth_required" || sessionAlreadyEnded) &&
      (earlier === "session_expired" || earlier === "token_invalid");
    if (!keepEarlier) sessionStorage.setItem(AUTH_FAILURE_REASON_KEY, reason);
  } catch {
    // storage may be unavailable (private mode); navigation still happens
  }
  window.dispatchEvent(new Event(SESSION_TOKEN_EVENT));
  onUnauthorized(reason);
}

/**
 * The error for a non-success answer, for calls that read the raw response (a download): a 401
 * runs the same session handling as apiRequest (spec section 4).
 */
export async function responseError(res: Response): Promise<ApiError> {
  if (res.status === 401) {
    const { message } = await readErrorMessage(res).catch(() => ({ message: "Unauthorized" }));
    handle401(message || "Unauthorized");
    return new ApiError(401, message || "Unauthorized", "unauthorized");
  }
  const { message, code } = await readErrorMessage(res);
  return new ApiError(res.status, message, code);
}

export interface RequestOptions {
  /**
   * For the default query function: a 401 yields null instead of an error. "ignore" throws
   * without the session handling, for calls whose 401 the caller handles itself (sign-in, logout).
   */
  on401?: "throw" | "returnNull" | "ignore";
  signal?: AbortSignal;
  /** Where the bearer token is read from (calendar calls also accept the legacy key). */
  readToken?: () => string | null;
}

/** Every call: bearer token when stored, cookies included, JSON bodies. */
export async function apiRequest<T>(
  method: string,
  path: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<T> {
  // Issue 38: a change asked for offline is refused at once, never held back to be sent later.
  const isWrite = method !== "GET" && method !== "HEAD";
  if (isWrite && browserOffline()) throw offlineError();
  const send = async (token: string | null) => {
    const headers: Record<string, string> = { Accept: "application/json" };
    if (token) headers.Authorization = `Bearer ${token}`;
    // The server answers 304 (no body) when the kept answer is still current (decision 0078).
    const etag = method === "GET" ? keptEtag(token, path) : undefined;
    if (etag) headers["If-None-Match"] = etag;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    try {
      const res = await fetch(path, {
        method,
        headers,
        credentials: "include",
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: options.signal,
      });
      reportAnswer();
      return res;
    } catch (err) {
      const aborted = options.signal?.aborted === true || (err instanceof Error && err.name === "AbortError");
      if (aborted) throw err;
      // No answer at all: the network or the server is gone (the Offline banner says so).
      reportNetworkFailure();
      throw isWrite ? offlineError() : err;
    }
  };
  const readToken = options.readToken ?? readSessionToken;
  const token = readToken();
  let res = await send(token);
  let sentWith = token;
  const current = readToken();
  if (res.status === 401 && current && current !== token) {
    // The stored token was replaced while this call was under way (connecting another account
    // ends the session that started it): the 401 was for the old token, so ask once more with
    // the new one instead of signing the user out. The server refused before doing anything.
    await res.body?.cancel();
    res = await send(current);
    sentWith = current;
  }
  if (res.status === 401) {
    const { message } = await readErrorMessage(res).catch(() => ({ message: "Unauthorized" }));
    if (options.on401 === "ignore") throw new ApiError(401, message || "Unauthorized", "unauthorized");
    handle401(message || "Unauthorized");
    if (options.on401 === "returnNull") return null as T;
    throw new ApiError(401, message || "Unauthorized", "unauthorized");
  }
  if (res.status === 304 && method === "GET") {
    const kept = keptData(sentWith, path);
    if (kept) return kept.data as T;
    // Nothing kept any more (forgotten meanwhile): ask again, without the condition this time.
    return apiRequest<T>(method, path, body, options);
  }
  if (!res.ok) throw await responseError(res);
  if (res.status === 204) return undefined as T;
  const type = res.headers.get("content-type") ?? "";
  const data = (type.includes("application/json") ? await res.json() : await res.text()) as T;
  const etag = res.headers.get("etag");
  if (method === "GET" && etag) keepAnswer(sentWith, path, etag, data);
  return data;
}
