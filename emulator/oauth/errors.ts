/**
 * Why a token-endpoint request failed, in our own words. Services throw these; each provider's
 * presenter (google-errors.ts, microsoft-errors.ts) turns a failure into that provider's status,
 * error code and wording, so the rules are written once and the wire shapes stay exact.
 */
export type OAuthFailure =
  | "missing_parameter"
  | "invalid_request"
  | "unsupported_grant_type"
  | "unknown_client"
  | "missing_client_secret"
  | "bad_client_secret"
  | "code_unknown"
  | "code_reused"
  | "code_expired"
  | "code_client_mismatch"
  | "redirect_uri_mismatch"
  | "code_verifier_missing"
  | "code_verifier_mismatch"
  | "refresh_token_unknown"
  | "refresh_token_revoked"
  | "refresh_token_rotated"
  | "refresh_token_expired"
  | "refresh_token_client_mismatch"
  | "scope_not_granted"
  | "unknown_tenant";

export interface OAuthErrorDetail {
  /** The parameter at fault, for "missing_parameter" and similar. */
  param?: string;
  /** The offending value (a client id, a redirect_uri, a grant_type, a tenant). */
  value?: string;
  /** What was expected instead, where the provider names it. */
  expected?: string;
  /** Free text for "invalid_request". */
  message?: string;
}

export class OAuthError extends Error {
  constructor(
    readonly failure: OAuthFailure,
    readonly detail: OAuthErrorDetail = {},
  ) {
    super(
      `${failure}${detail.param ? ` (${detail.param})` : ""}${detail.message ? `: ${detail.message}` : ""}`,
    );
    this.name = "OAuthError";
  }
}
