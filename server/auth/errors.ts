import * as oauth from "oauth4webapi";
import type { MailProvider } from "../../contract/auth.ts";
import { DomainError } from "../http/errors.ts";

/**
 * What to do next after a provider call failed. Callers (sign-in, token refresh, later the sync
 * jobs) choose retries by this kind, never by message text.
 * - reauth: the grant is gone (revoked, expired, password changed); only the user can fix it.
 * - rate_limit: retry after the provider's delay.
 * - transient: network trouble or a 5xx; back off and retry.
 * - permanent: our request is wrong (bad client, bad code); retrying cannot help.
 */
export type ProviderFailureKind = "reauth" | "rate_limit" | "transient" | "permanent";

export class ProviderError extends Error {
  override name = "ProviderError";
  constructor(
    readonly kind: ProviderFailureKind,
    message: string,
    /** The OAuth error id (invalid_grant, access_denied, ...) when the provider sent one. */
    readonly oauthError?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const PERMANENT_OAUTH_ERRORS = new Set([
  "invalid_request",
  "invalid_client",
  "unauthorized_client",
  "unsupported_grant_type",
  "invalid_scope",
]);

export function kindForHttpStatus(status: number): ProviderFailureKind {
  if (status === 429) return "rate_limit";
  if (status >= 500 || status === 408) return "transient";
  return "permanent";
}

export function kindForOAuthError(error: string, status: number): ProviderFailureKind {
  if (error === "invalid_grant") return "reauth";
  if (error === "temporarily_unavailable" || error === "server_error") return "transient";
  if (error === "slow_down") return "rate_limit";
  if (PERMANENT_OAUTH_ERRORS.has(error)) return "permanent";
  return kindForHttpStatus(status);
}

/** Sorts anything thrown while talking to a provider (oauth4webapi errors, fetch failures). */
export function toProviderError(err: unknown, what: string): ProviderError {
  if (err instanceof ProviderError) return err;
  if (err instanceof oauth.ResponseBodyError) {
    return new ProviderError(kindForOAuthError(err.error, err.status), `${what}: ${err.error}`, err.error, {
      cause: err,
    });
  }
  if (err instanceof oauth.AuthorizationResponseError) {
    return new ProviderError("permanent", `${what}: ${err.error}`, err.error, { cause: err });
  }
  if (err instanceof oauth.WWWAuthenticateChallengeError) {
    return new ProviderError(kindForHttpStatus(err.status), `${what}: HTTP ${err.status}`, undefined, {
      cause: err,
    });
  }
  if (err instanceof oauth.OperationProcessingError) {
    const response = err.cause instanceof Response ? err.cause : undefined;
    const kind = response ? kindForHttpStatus(response.status) : "permanent";
    return new ProviderError(kind, `${what}: ${err.message}`, undefined, { cause: err });
  }
  if (err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError")) {
    return new ProviderError("transient", `${what}: timed out`, undefined, { cause: err });
  }
  // fetch() rejects with a TypeError on DNS, connection and TLS failures.
  if (err instanceof TypeError) {
    return new ProviderError("transient", `${what}: ${err.message}`, undefined, { cause: err });
  }
  return new ProviderError("permanent", `${what}: unexpected failure`, undefined, { cause: err });
}

const PROVIDER_NAMES: Record<MailProvider, string> = { gmail: "Gmail", outlook: "Outlook" };

export function providerName(provider: MailProvider): string {
  return PROVIDER_NAMES[provider];
}

/**
 * The user-facing error for a failed call on behalf of a connected account. The ProviderError
 * rides along as `cause`, so jobs can pick a retry policy by its kind.
 */
export function domainErrorFor(err: ProviderError, provider: MailProvider): DomainError {
  const name = providerName(provider);
  let error: DomainError;
  switch (err.kind) {
    case "reauth":
      error = new DomainError(
        "provider_reauth_required",
        `Your ${name} account needs to be reconnected. Please sign in with it again.`,
      );
      break;
    case "rate_limit":
    case "transient":
      error = new DomainError(
        "provider_unavailable",
        `${name} is not responding right now. Please try again.`,
      );
      break;
    case "permanent":
      error = new DomainError("provider_unavailable", `${name} refused the request.`);
      break;
  }
  error.cause = err;
  return error;
}
