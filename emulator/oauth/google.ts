import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { JWTPayload } from "jose";
import { googlePictureUrl } from "../avatars.ts";
import { type EmulatorContext, emulatorBaseUrl } from "../context.ts";
import { field, stringFields } from "../http/fields.ts";
import { bearerToken } from "../http/request.ts";
import type { AuthorizeProvider } from "./authorize.ts";
import { registerAuthorizeRoutes } from "./authorize.ts";
import type { RegisteredClient } from "./clients.ts";
import { readClientCredentials } from "./clients.ts";
import { OAuthError } from "./errors.ts";
import { describeGoogleAuthorizeFailure, googleTokenError } from "./google-errors.ts";
import {
  describeGoogleScope,
  GOOGLE_EMAIL_SCOPE,
  GOOGLE_PROFILE_SCOPE,
  GOOGLE_SUPPORTED_SCOPES,
  normalizeGoogleScopes,
  unknownGoogleScopes,
} from "./google-scopes.ts";
import { hasScope } from "./scopes.ts";
import { accessTokenHash, signIdToken } from "./signing.ts";
import {
  exchangeAuthorizationCode,
  type IssuedTokens,
  refreshAccessToken,
  type TokenPolicy,
} from "./token-service.ts";

/** Host prefixes, each standing in for the real host of the same name. */
const ACCOUNTS = "/accounts.google.com";
const OAUTH2 = "/oauth2.googleapis.com";
const OIDC = "/openidconnect.googleapis.com";
const WWW = "/www.googleapis.com";

export const googlePolicy: TokenPolicy = {
  provider: "google",
  rotateRefreshTokens: false,
  refreshTokenIdleSeconds: 183 * 24 * 60 * 60,
  accessTokenPrefix: "ya29.",
  refreshTokenPrefix: "1//0",
  codePrefix: "4/0",
  // A refresh token only for offline access, and only on first consent unless prompt=consent
  // forces a new one: an app that drops the first refresh token gets none the next time.
  wantsRefreshToken: (code, clientAlreadyHasOne) =>
    code.offline && (code.forceConsent || !clientAlreadyHasOne),
  normalizeScopes: normalizeGoogleScopes,
};

const googleAuthorize: AuthorizeProvider = {
  provider: "google",
  policy: googlePolicy,
  tenantProblem: () => undefined,
  unknownScopes: unknownGoogleScopes,
  describeScope: describeGoogleScope,
  redirectsFailure: () => false,
  describeFailure: describeGoogleAuthorizeFailure,
  errorRedirectParams: () => [],
  successRedirectParams: (code) => [
    ["scope", code.scopes.join(" ")],
    ["authuser", "0"],
    ["prompt", "consent"],
  ],
  cancelRedirectParams: () => [["error", "access_denied"]],
};

function noStore(reply: FastifyReply): FastifyReply {
  return reply
    .header("cache-control", "no-cache, no-store, max-age=0, must-revalidate")
    .header("pragma", "no-cache");
}

function sendTokenError(request: FastifyRequest, reply: FastifyReply, error: OAuthError): FastifyReply {
  request.log.info({ failure: error.failure }, "google token request rejected");
  const { status, body } = googleTokenError(error);
  return noStore(reply).code(status).send(body);
}

async function tokenResponse(
  context: EmulatorContext,
  baseUrl: string,
  client: RegisteredClient,
  issued: IssuedTokens,
): Promise<Record<string, string | number>> {
  const { accessToken, identity } = issued;
  const scopes = accessToken.scopes;
  const response: Record<string, string | number> = {
    access_token: accessToken.value,
    expires_in: Math.round((accessToken.expiresAt - context.clock.now()) / 1000),
  };
  if (issued.refreshToken !== undefined) response.refresh_token = issued.refreshToken.value;
  response.scope = scopes.join(" ");
  response.token_type = "Bearer";
  if (hasScope(scopes, "openid")) {
    const iat = context.clock.nowSeconds();
    const claims: JWTPayload = {
      iss: `${baseUrl}${ACCOUNTS}`,
      azp: client.clientId,
      aud: client.clientId,
      sub: identity.id,
      at_hash: accessTokenHash(accessToken.value),
      iat,
      exp: iat + 3600,
    };
    if (hasScope(scopes, GOOGLE_EMAIL_SCOPE)) {
      claims.email = identity.email;
      claims.email_verified = true;
    }
    if (hasScope(scopes, GOOGLE_PROFILE_SCOPE)) {
      claims.name = identity.name;
      claims.picture = googlePictureUrl(baseUrl, identity);
      claims.given_name = identity.givenName;
      claims.family_name = identity.familyName;
    }
    if (issued.nonce !== undefined) claims.nonce = issued.nonce;
    response.id_token = await signIdToken(await context.keys.google, claims);
  }
  return response;
}

function discovery(baseUrl: string): Record<string, unknown> {
  return {
    issuer: `${baseUrl}${ACCOUNTS}`,
    authorization_endpoint: `${baseUrl}${ACCOUNTS}/o/oauth2/v2/auth`,
    token_endpoint: `${baseUrl}${OAUTH2}/token`,
    userinfo_endpoint: `${baseUrl}${OIDC}/v1/userinfo`,
    revocation_endpoint: `${baseUrl}${OAUTH2}/revoke`,
    jwks_uri: `${baseUrl}${WWW}/oauth2/v3/certs`,
    response_types_supported: ["code"],
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: ["RS256"],
    scopes_supported: GOOGLE_SUPPORTED_SCOPES,
    token_endpoint_auth_methods_supported: ["client_secret_post", "client_secret_basic"],
    claims_supported: [
      "aud",
      "email",
      "email_verified",
      "exp",
      "family_name",
      "given_name",
      "iat",
      "iss",
      "name",
      "picture",
      "sub",
    ],
    code_challenge_methods_supported: ["plain", "S256"],
    grant_types_supported: ["authorization_code", "refresh_token"],
  };
}

/** Google OAuth 2.0 / OpenID Connect: authorize, token, revoke, userinfo, discovery, JWKS. */
export function registerGoogleIdentityRoutes(app: FastifyInstance, context: EmulatorContext): void {
  registerAuthorizeRoutes(app, `${ACCOUNTS}/o/oauth2/v2/auth`, googleAuthorize, context);

  app.get(`${ACCOUNTS}/.well-known/openid-configuration`, (request, reply) =>
    reply.header("cache-control", "public, max-age=3600").send(discovery(emulatorBaseUrl(context, request))),
  );

  app.get(`${WWW}/oauth2/v3/certs`, async (_request, reply) => {
    const key = await context.keys.google;
    return reply.header("cache-control", "public, max-age=3600").send({ keys: [key.publicJwk] });
  });

  app.post(`${OAUTH2}/token`, async (request, reply) => {
    const body = stringFields(request.body);
    try {
      const client = context.clients.authenticate(
        "google",
        readClientCredentials(request.headers.authorization, body),
      );
      const grantType = field(body, "grant_type");
      let issued: IssuedTokens;
      if (grantType === "authorization_code") {
        issued = exchangeAuthorizationCode(context, googlePolicy, client, {
          code: field(body, "code"),
          redirectUri: field(body, "redirect_uri"),
          codeVerifier: field(body, "code_verifier"),
        });
      } else if (grantType === "refresh_token") {
        issued = refreshAccessToken(context, googlePolicy, client, {
          refreshToken: field(body, "refresh_token"),
          scope: field(body, "scope"),
        });
      } else {
        throw new OAuthError("unsupported_grant_type", { value: grantType ?? "" });
      }
      const response = await tokenResponse(context, emulatorBaseUrl(context, request), client, issued);
      return noStore(reply).send(response);
    } catch (error) {
      if (error instanceof OAuthError) return sendTokenError(request, reply, error);
      throw error;
    }
  });

  // Revoking either token of a grant ends the user's whole authorization of that client, as at Google.
  app.post(`${OAUTH2}/revoke`, (request, reply) => {
    const token = field(stringFields(request.body), "token") ?? field(stringFields(request.query), "token");
    if (token === undefined) {
      return reply
        .code(400)
        .send({ error: "invalid_request", error_description: "Missing required parameter: token" });
    }
    const grant = context.tokens.grantOfToken(token, "google");
    if (grant === undefined || grant.revokedAt !== undefined) {
      return reply.code(400).send({ error: "invalid_token", error_description: "Token expired or revoked" });
    }
    context.tokens.revokeGrants({
      provider: "google",
      identityId: grant.identityId,
      clientId: grant.clientId,
    });
    return reply.send({});
  });

  const userinfo = (request: FastifyRequest, reply: FastifyReply) => {
    const token = bearerToken(request) ?? field(stringFields(request.query), "access_token");
    const unauthorized = (error: string, description: string) =>
      reply
        .code(401)
        .header(
          "www-authenticate",
          `Bearer realm="https://accounts.google.com/", error="${error}", error_description="${description}"`,
        )
        .send({ error, error_description: description });
    if (token === undefined) return unauthorized("invalid_request", "Missing access token");
    const lookup = context.tokens.lookupAccessToken(token, "google");
    if (lookup.status !== "active") return unauthorized("invalid_token", "Invalid Credentials");
    const identity = context.identities.find("google", lookup.grant.identityId);
    if (identity === undefined) return unauthorized("invalid_token", "Invalid Credentials");
    // Like Google, only the fields the token's scopes allow.
    const scopes = lookup.token.scopes;
    const info: Record<string, string | boolean> = { sub: identity.id };
    if (hasScope(scopes, GOOGLE_PROFILE_SCOPE)) {
      info.name = identity.name;
      info.given_name = identity.givenName;
      info.family_name = identity.familyName;
      info.picture = googlePictureUrl(emulatorBaseUrl(context, request), identity);
    }
    if (hasScope(scopes, GOOGLE_EMAIL_SCOPE)) {
      info.email = identity.email;
      info.email_verified = true;
    }
    return reply.header("cache-control", "no-cache, no-store, max-age=0, must-revalidate").send(info);
  };
  app.get(`${OIDC}/v1/userinfo`, userinfo);
  app.post(`${OIDC}/v1/userinfo`, userinfo);
  app.get(`${WWW}/oauth2/v3/userinfo`, userinfo);
}
