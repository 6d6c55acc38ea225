import { randomUUID } from "node:crypto";
import type { AuthorizeFailure, AuthorizeFailureDetail, AuthorizeFailureView } from "./authorize.ts";
import type { OAuthError, OAuthFailure } from "./errors.ts";

/** The error body of login.microsoftonline.com's token endpoint. */
export interface MicrosoftErrorBody {
  error: string;
  error_description: string;
  error_codes: number[];
  timestamp: string;
  trace_id: string;
  correlation_id: string;
}

interface AadError {
  status: number;
  error: string;
  code: number;
  message: string;
}

type Describe = (error: OAuthError) => AadError;

const aad =
  (status: number, error: string, code: number, message: string): Describe =>
  () => ({ status, error, code, message });

const EXPIRED_GRANT =
  "The provided authorization code or refresh token has expired due to inactivity. Send a new interactive authorization request for this user and resource.";

const TOKEN_ERRORS: Record<OAuthFailure, Describe> = {
  missing_parameter: (e) => ({
    status: 400,
    error: "invalid_request",
    code: 900144,
    message: `The request body must contain the following parameter: '${e.detail.param ?? ""}'.`,
  }),
  invalid_request: (e) => ({
    status: 400,
    error: "invalid_request",
    code: 9002313,
    message: `Invalid request. Request is malformed or invalid. ${e.detail.message ?? ""}`.trim(),
  }),
  unsupported_grant_type: (e) => ({
    status: 400,
    error: "unsupported_grant_type",
    code: 70003,
    message: `The app requested an unsupported grant type '${e.detail.value ?? ""}'.`,
  }),
  unknown_client: (e) => ({
    status: 400,
    error: "unauthorized_client",
    code: 700016,
    message: `Application with identifier '${e.detail.value ?? ""}' was not found in the directory 'Microsoft Accounts'. This can happen if the application has not been installed by the administrator of the tenant or consented to by any user in the tenant. You may have sent your authentication request to the wrong tenant.`,
  }),
  missing_client_secret: aad(
    401,
    "invalid_client",
    7000218,
    "The request body must contain the following parameter: 'client_assertion' or 'client_secret'.",
  ),
  bad_client_secret: (e) => ({
    status: 401,
    error: "invalid_client",
    code: 7000215,
    message: `Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app '${e.detail.value ?? ""}'.`,
  }),
  code_unknown: aad(400, "invalid_grant", 9002313, "Invalid request. Request is malformed or invalid."),
  code_reused: aad(
    400,
    "invalid_grant",
    54005,
    "OAuth2 Authorization code was already redeemed, please retry with a new valid code or use an existing refresh token.",
  ),
  code_expired: aad(400, "invalid_grant", 70008, EXPIRED_GRANT),
  code_client_mismatch: aad(
    400,
    "invalid_grant",
    70000,
    "The provided value for the 'code' parameter is not valid. The code was issued to a different client.",
  ),
  redirect_uri_mismatch: (e) => ({
    status: 400,
    error: "invalid_grant",
    code: 500112,
    message: `The reply address '${e.detail.value ?? ""}' does not match the reply address '${e.detail.expected ?? ""}' provided when requesting Authorization code.`,
  }),
  code_verifier_missing: aad(
    400,
    "invalid_grant",
    501481,
    "The Code_Verifier does not match the code_challenge supplied in the authorization request.",
  ),
  code_verifier_mismatch: aad(
    400,
    "invalid_grant",
    50148,
    "The code_verifier does not match the code_challenge supplied in the authorization request for PKCE.",
  ),
  refresh_token_unknown: aad(
    400,
    "invalid_grant",
    9002313,
    "Invalid request. Request is malformed or invalid.",
  ),
  refresh_token_revoked: aad(
    400,
    "invalid_grant",
    50173,
    "The provided grant has expired due to it being revoked, a fresh auth token is needed. The user might have changed or reset their password.",
  ),
  refresh_token_rotated: aad(
    400,
    "invalid_grant",
    70000,
    "The provided value for the input parameter 'refresh_token' or 'assertion' is not valid.",
  ),
  refresh_token_expired: aad(400, "invalid_grant", 70008, EXPIRED_GRANT),
  refresh_token_client_mismatch: aad(
    400,
    "invalid_grant",
    70000,
    "The provided value for the input parameter 'refresh_token' or 'assertion' is not valid.",
  ),
  scope_not_granted: aad(
    400,
    "invalid_scope",
    70011,
    "The provided value for the input parameter 'scope' is not valid. The scope exceeds the scopes originally granted.",
  ),
  unknown_tenant: (e) => ({
    status: 400,
    error: "invalid_request",
    code: 90002,
    message: `Tenant '${e.detail.value ?? ""}' not found. Check to make sure you have the correct tenant ID and are signing into the correct cloud.`,
  }),
};

/** "2024-05-01 12:34:56Z", the timestamp format Microsoft puts in error bodies. */
function aadTimestamp(epochMs: number): string {
  return new Date(epochMs)
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d{3}Z$/, "Z");
}

/** Builds Microsoft's error body; correlationId echoes the caller's client-request-id header. */
export function microsoftErrorBody(
  error: string,
  code: number,
  message: string,
  nowMs: number,
  correlationId: string | undefined,
): MicrosoftErrorBody {
  const timestamp = aadTimestamp(nowMs);
  const traceId = randomUUID();
  const correlation = correlationId ?? randomUUID();
  return {
    error,
    error_description: `AADSTS${code}: ${message} Trace ID: ${traceId} Correlation ID: ${correlation} Timestamp: ${timestamp}`,
    error_codes: [code],
    timestamp,
    trace_id: traceId,
    correlation_id: correlation,
  };
}

export function microsoftTokenError(
  error: OAuthError,
  nowMs: number,
  correlationId: string | undefined,
): { status: number; body: MicrosoftErrorBody } {
  const described = TOKEN_ERRORS[error.failure](error);
  return {
    status: described.status,
    body: microsoftErrorBody(described.error, described.code, described.message, nowMs, correlationId),
  };
}

/** Microsoft's sign-in error wording: "AADSTS<code>: <message>". */
export function describeMicrosoftAuthorizeFailure(
  failure: AuthorizeFailure,
  detail: AuthorizeFailureDetail,
): AuthorizeFailureView {
  const view = (status: number, error: string, code: number, message: string): AuthorizeFailureView => ({
    status,
    error,
    message: `AADSTS${code}: ${message}`,
  });
  switch (failure) {
    case "unknown_tenant":
      return view(
        400,
        "invalid_request",
        90002,
        `Tenant '${detail.value ?? ""}' not found. Check to make sure you have the correct tenant ID and are signing into the correct cloud.`,
      );
    case "missing_client_id":
      return view(
        400,
        "invalid_request",
        900144,
        "The request body must contain the following parameter: 'client_id'.",
      );
    case "unknown_client":
      return view(
        400,
        "unauthorized_client",
        700016,
        `Application with identifier '${detail.value ?? ""}' was not found in the directory 'Microsoft Accounts'.`,
      );
    case "missing_redirect_uri":
      return view(
        400,
        "invalid_request",
        900144,
        "The request body must contain the following parameter: 'redirect_uri'.",
      );
    case "redirect_uri_mismatch":
      return view(
        400,
        "invalid_request",
        50011,
        `The redirect URI '${detail.value ?? ""}' specified in the request does not match the redirect URIs configured for the application. Make sure the redirect URI sent in the request matches one added to your application.`,
      );
    case "unsupported_response_type":
      return view(
        400,
        "unsupported_response_type",
        700054,
        `response_type '${detail.value ?? ""}' is not enabled for the application. The emulator supports 'code'.`,
      );
    case "unsupported_response_mode":
      return view(
        400,
        "invalid_request",
        900144,
        `response_mode '${detail.value ?? ""}' is not supported by the emulator; use 'query'.`,
      );
    case "missing_scope":
      return view(
        400,
        "invalid_request",
        900144,
        "The request body must contain the following parameter: 'scope'.",
      );
    case "invalid_scope":
      return view(
        400,
        "invalid_scope",
        70011,
        `The provided value for the input parameter 'scope' is not valid. The scope '${detail.value ?? ""}' is not valid.`,
      );
    case "missing_code_challenge":
      return view(
        400,
        "invalid_request",
        9002325,
        "Proof Key for Code Exchange is required for cross-origin authorization code redemption.",
      );
    case "invalid_code_challenge":
      return view(
        400,
        "invalid_request",
        501491,
        `Invalid size of Code_Challenge parameter or unsupported ${detail.param ?? "code_challenge"}.`,
      );
    case "login_required":
      return view(
        400,
        "login_required",
        50058,
        "A silent sign-in request was sent but no user is signed in.",
      );
    case "flow_invalid":
      return view(
        400,
        "invalid_request",
        90014,
        "This sign-in request has expired or is invalid. Start again.",
      );
    case "unknown_identity":
      return view(400, "invalid_request", 50034, "The user account does not exist in the emulator.");
  }
}
