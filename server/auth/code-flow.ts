import * as oauth from "oauth4webapi";
import type { Config } from "../config.ts";
import { readGoogleIdentity } from "./google.ts";
import type { ProviderIdentity } from "./identity.ts";
import { readMicrosoftIdentity } from "./microsoft.ts";
import { type OAuthProvider, requestOptions } from "./oauth-clients.ts";
import type { PendingSignIn } from "./state-store.ts";

// Mail sign-in and calendar connect run the same PKCE code flow against the same app
// registrations; only the scope, the extra parameters and what happens with the grant differ.
// Keeping the protocol steps in one place keeps their checks (state, PKCE, nonce, id_token) alike.

/**
 * The provider's authorization URL with the standard code-flow parameters (PKCE S256, state,
 * nonce). Callers add their provider-specific parameters after these.
 */
export async function authorizationUrl(
  p: OAuthProvider,
  input: { redirectUri: string; scope: string; state: string; nonce: string; codeVerifier: string },
): Promise<URL> {
  const url = new URL(p.as.authorization_endpoint as string);
  url.searchParams.set("client_id", p.client.client_id);
  url.searchParams.set("redirect_uri", input.redirectUri);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("scope", input.scope);
  url.searchParams.set("state", input.state);
  url.searchParams.set("nonce", input.nonce);
  url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(input.codeVerifier));
  url.searchParams.set("code_challenge_method", "S256");
  return url;
}

/** What a code exchange yields: the provider's tokens and who they belong to. */
export interface ExchangedCode {
  tokenResponse: oauth.TokenEndpointResponse;
  identity: ProviderIdentity;
}

/**
 * Checks the provider's redirect against the consumed state, exchanges the code (with the PKCE
 * verifier and the expected nonce, an id_token required) and reads who it belongs to. Codes are
 * single-use at the provider, so callers never retry; any failure is thrown as it came, for the
 * caller to sort with toProviderError.
 */
export async function exchangeCode(
  p: OAuthProvider,
  graphBase: Config["providers"]["graph"],
  query: Record<string, string>,
  pending: Pick<PendingSignIn, "redirectUri" | "codeVerifier" | "nonce">,
): Promise<ExchangedCode> {
  const params = oauth.validateAuthResponse(p.as, p.client, new URLSearchParams(query), query.state);
  const response = await oauth.authorizationCodeGrantRequest(
    p.as,
    p.client,
    p.clientAuth,
    params,
    pending.redirectUri,
    pending.codeVerifier,
    requestOptions(p.as.token_endpoint),
  );
  const tokenResponse = await oauth.processAuthorizationCodeResponse(p.as, p.client, response, {
    expectedNonce: pending.nonce,
    requireIdToken: true,
  });
  const identity =
    p.provider === "gmail"
      ? await readGoogleIdentity(p, tokenResponse)
      : await readMicrosoftIdentity(graphBase, tokenResponse.access_token);
  return { tokenResponse, identity };
}
