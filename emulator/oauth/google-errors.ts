import type { AuthorizeFailure, AuthorizeFailureDetail, AuthorizeFailureView } from "./authorize.ts";
import type { OAuthError, OAuthFailure } from "./errors.ts";

export interface GoogleErrorBody {
  error: string;
  error_description: string;
}

type Presenter = (error: OAuthError) => { status: number; body: GoogleErrorBody };

const plain =
  (status: number, error: string, description: string): Presenter =>
  () => ({ status, body: { error, error_description: description } });

// Google's token endpoint is famously terse ("Bad Request"); these are the texts it sends.
const TOKEN_ERRORS: Record<OAuthFailure, Presenter> = {
  missing_parameter: (e) => ({
    status: 400,
    body: {
      error: "invalid_request",
      error_description: `Missing required parameter: ${e.detail.param ?? ""}`,
    },
  }),
  invalid_request: (e) => ({
    status: 400,
    body: { error: "invalid_request", error_description: e.detail.message ?? "Bad Request" },
  }),
  unsupported_grant_type: (e) => ({
    status: 400,
    body: {
      error: "unsupported_grant_type",
      error_description: `Invalid grant_type: ${e.detail.value ?? ""}`,
    },
  }),
  unknown_client: plain(401, "invalid_client", "The OAuth client was not found."),
  missing_client_secret: plain(400, "invalid_request", "client_secret is missing."),
  bad_client_secret: plain(401, "invalid_client", "Unauthorized"),
  code_unknown: plain(400, "invalid_grant", "Malformed auth code."),
  code_reused: plain(400, "invalid_grant", "Bad Request"),
  code_expired: plain(400, "invalid_grant", "Bad Request"),
  code_client_mismatch: plain(400, "invalid_grant", "Bad Request"),
  redirect_uri_mismatch: plain(400, "invalid_grant", "Bad Request"),
  code_verifier_missing: plain(400, "invalid_grant", "Missing code verifier."),
  code_verifier_mismatch: plain(400, "invalid_grant", "Invalid code verifier."),
  refresh_token_unknown: plain(400, "invalid_grant", "Bad Request"),
  refresh_token_revoked: plain(400, "invalid_grant", "Token has been expired or revoked."),
  refresh_token_rotated: plain(400, "invalid_grant", "Token has been expired or revoked."),
  refresh_token_expired: plain(400, "invalid_grant", "Token has been expired or revoked."),
  refresh_token_client_mismatch: plain(400, "unauthorized_client", "Unauthorized"),
  scope_not_granted: plain(400, "invalid_scope", "Bad Request"),
  unknown_tenant: plain(400, "invalid_request", "Bad Request"),
};

export function googleTokenError(error: OAuthError): { status: number; body: GoogleErrorBody } {
  return TOKEN_ERRORS[error.failure](error);
}

/** Wording of Google's "Access blocked" pages (and of error redirects once the client is trusted). */
export function describeGoogleAuthorizeFailure(
  failure: AuthorizeFailure,
  detail: AuthorizeFailureDetail,
): AuthorizeFailureView {
  switch (failure) {
    case "missing_client_id":
      return { status: 400, error: "invalid_request", message: "Missing required parameter: client_id" };
    case "unknown_client":
      return { status: 401, error: "invalid_client", message: "The OAuth client was not found." };
    case "missing_redirect_uri":
      return { status: 400, error: "invalid_request", message: "Missing required parameter: redirect_uri" };
    case "redirect_uri_mismatch":
      return {
        status: 400,
        error: "redirect_uri_mismatch",
        message:
          "You can’t sign in to this app because it doesn’t comply with Google’s OAuth 2.0 policy. The redirect_uri does not match a redirect URI registered for the OAuth client.",
      };
    case "unsupported_response_type":
      return {
        status: 400,
        error: "unsupported_response_type",
        message: `Invalid response_type: ${detail.value ?? ""}. This emulator supports response_type=code.`,
      };
    case "unsupported_response_mode":
      return {
        status: 400,
        error: "invalid_request",
        message: `Invalid response_mode: ${detail.value ?? ""}. This emulator supports response_mode=query.`,
      };
    case "missing_scope":
      return { status: 400, error: "invalid_request", message: "Missing required parameter: scope" };
    case "invalid_scope":
      return {
        status: 400,
        error: "invalid_scope",
        message: `Some requested scopes were invalid. {invalid=[${detail.value ?? ""}]}`,
      };
    case "missing_code_challenge":
      return {
        status: 400,
        error: "invalid_request",
        message: "Missing required parameter: code_challenge. The Mailwise emulator requires PKCE.",
      };
    case "invalid_code_challenge":
      return {
        status: 400,
        error: "invalid_request",
        message: `Invalid ${detail.param ?? "code_challenge"}: ${detail.value ?? ""}`,
      };
    case "login_required":
      return { status: 400, error: "login_required", message: "No signed-in session for prompt=none." };
    case "unknown_tenant":
    case "flow_invalid":
      return {
        status: 400,
        error: "invalid_request",
        message: "This sign-in request is no longer valid. Go back to the app and start again.",
      };
    case "unknown_identity":
      return {
        status: 400,
        error: "invalid_request",
        message: "That account does not exist in the emulator.",
      };
  }
}
