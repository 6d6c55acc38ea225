import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { JWTPayload } from "jose";
import { type EmulatorContext, emulatorBaseUrl } from "../context.ts";
import { field, stringFields } from "../http/fields.ts";
import { MICROSOFT_CONSUMER_TENANT_ID, microsoftObjectId, microsoftPairwiseSub } from "../identities.ts";
import type { AuthorizeFailure, AuthorizeProvider } from "./authorize.ts";
import { registerAuthorizeRoutes } from "./authorize.ts";
import type { RegisteredClient } from "./clients.ts";
import { readClientCredentials } from "./clients.ts";
import { OAuthError } from "./errors.ts";
import {
  describeMicrosoftAuthorizeFailure,
  microsoftErrorBody,
  microsoftTokenError,
} from "./microsoft-errors.ts";
import {
  describeMicrosoftScope,
  normalizeMicrosoftScopes,
  unknownMicrosoftScopes,
} from "./microsoft-scopes.ts";
import { hasScope } from "./scopes.ts";
import { signIdToken } from "./signing.ts";
import {
  exchangeAuthorizationCode,
  type IssuedTokens,
  refreshAccessToken,
  type TokenPolicy,
} from "./token-service.ts";

const LOGIN = "/login.microsoftonline.com";

/** Tenant segments the emulator answers for; every demo identity is a personal account. */
const KNOWN_TENANTS = new Set(["common", "consumers", "organizations", MICROSOFT_CONSUMER_TENANT_ID]);

function isKnownTenant(tenant: string | undefined): tenant is string {
  return tenant !== undefined && KNOWN_TENANTS.has(tenant.toLowerCase());
}

export const microsoftPolicy: TokenPolicy = {
  provider: "microsoft",
  rotateRefreshTokens: true,
  refreshTokenIdleSeconds: 90 * 24 * 60 * 60,
  accessTokenPrefix: "EwA",
  refreshTokenPrefix: "M.C5_BAY.",
  codePrefix: "M.C5_BAY.2.U.",
  wantsRefreshToken: (code) => hasScope(code.scopes, "offline_access"),
  normalizeScopes: normalizeMicrosoftScopes,
};

// Microsoft reports errors found after redirect_uri validation back to the app, except the
// response_type/response_mode ones, which decide how a redirect would even be shaped.
const PAGE_ONLY: ReadonlySet<AuthorizeFailure> = new Set<AuthorizeFailure>([
  "unsupported_response_type",
  "unsupported_response_mode",
  "flow_invalid",
  "unknown_identity",
]);

const microsoftAuthorize: AuthorizeProvider = {
  provider: "microsoft",
  policy: microsoftPolicy,
  tenantProblem: (tenant) => (isKnownTenant(tenant) ? undefined : { param: "tenant", value: tenant ?? "" }),
  unknownScopes: unknownMicrosoftScopes,
  describeScope: describeMicrosoftScope,
  redirectsFailure: (failure) => !PAGE_ONLY.has(failure),
  describeFailure: describeMicrosoftAuthorizeFailure,
  errorRedirectParams: (view) => [["error_description", view.message]],
  successRedirectParams: () => [],
  cancelRedirectParams: () => [
    ["error", "access_denied"],
    ["error_description", "AADSTS65004: User declined to consent to access the app."],
  ],
};

/** The v2.0 issuer of personal-account tokens, whichever tenant segment the app used. */
export function microsoftTokenIssuer(baseUrl: string): string {
  return `${baseUrl}${LOGIN}/${MICROSOFT_CONSUMER_TENANT_ID}/v2.0`;
}

/**
 * Discovery issuer: the multi-tenant endpoints publish the literal template "{tenantid}", as
 * Microsoft does, so an app must validate issuers the way it will have to against the real one.
 */
function discoveryIssuer(baseUrl: string, tenant: string): string {
  const lower = tenant.toLowerCase();
  return lower === "common" || lower === "organizations"
    ? `${baseUrl}${LOGIN}/{tenantid}/v2.0`
    : microsoftTokenIssuer(baseUrl);
}

function correlationId(request: FastifyRequest): string | undefined {
  const header = request.headers["client-request-id"];
  return typeof header === "string" && /^[0-9a-f-]{36}$/i.test(header) ? header : undefined;
}

function noStore(reply: FastifyReply): FastifyReply {
  return reply.header("cache-control", "no-store, no-cache").header("pragma", "no-cache");
}

async function tokenResponse(
  context: EmulatorContext,
  baseUrl: string,
  client: RegisteredClient,
  issued: IssuedTokens,
): Promise<Record<string, string | number>> {
  const { accessToken, identity } = issued;
  const scopes = accessToken.scopes;
  const expiresIn = Math.round((accessToken.expiresAt - context.clock.now()) / 1000);
  const response: Record<string, string | number> = {
    token_type: "Bearer",
    scope: scopes.join(" "),
    expires_in: expiresIn,
    ext_expires_in: expiresIn,
    access_token: accessToken.value,
  };
  if (issued.refreshToken !== undefined) response.refresh_token = issued.refreshToken.value;
  if (hasScope(scopes, "openid")) {
    const iat = context.clock.nowSeconds();
    const claims: JWTPayload = {
      ver: "2.0",
      iss: microsoftTokenIssuer(baseUrl),
      sub: microsoftPairwiseSub(identity.id, client.clientId),
      aud: client.clientId,
      exp: iat + 3600,
      iat,
      nbf: iat,
      oid: microsoftObjectId(identity.id),
      tid: MICROSOFT_CONSUMER_TENANT_ID,
    };
    if (hasScope(scopes, "profile")) {
      claims.name = identity.name;
      claims.preferred_username = identity.email;
    }
    if (hasScope(scopes, "email")) claims.email = identity.email;
    if (issued.nonce !== undefined) claims.nonce = issued.nonce;
    response.id_token = await signIdToken(await context.keys.microsoft, claims);
  }
  return response;
}

function discovery(baseUrl: string, tenant: string): Record<string, unknown> {
  const root = `${baseUrl}${LOGIN}/${tenant}`;
  return {
    token_endpoint: `${root}/oauth2/v2.0/token`,
    token_endpoint_auth_methods_supported: ["client_secret_post", "private_key_jwt", "client_secret_basic"],
    jwks_uri: `${root}/discovery/v2.0/keys`,
    response_modes_supported: ["query", "fragment", "form_post"],
    subject_types_supported: ["pairwise"],
    id_token_signing_alg_values_supported: ["RS256"],
    response_types_supported: ["code", "id_token", "code id_token", "id_token token"],
    scopes_supported: ["openid", "profile", "email", "offline_access"],
    issuer: discoveryIssuer(baseUrl, tenant),
    request_uri_parameter_supported: false,
    userinfo_endpoint: `${baseUrl}/graph.microsoft.com/oidc/userinfo`,
    authorization_endpoint: `${root}/oauth2/v2.0/authorize`,
    http_logout_supported: true,
    frontchannel_logout_supported: true,
    end_session_endpoint: `${root}/oauth2/v2.0/logout`,
    claims_supported: [
      "sub",
      "iss",
      "aud",
      "exp",
      "iat",
      "auth_time",
      "nonce",
      "preferred_username",
      "name",
      "tid",
      "ver",
      "oid",
      "email",
    ],
    code_challenge_methods_supported: ["plain", "S256"],
    tenant_region_scope: null,
    cloud_instance_name: "microsoftonline.com",
    cloud_graph_host_name: "graph.windows.net",
    msgraph_host: "graph.microsoft.com",
  };
}

/** Microsoft identity platform v2.0: authorize, token, discovery and keys for each tenant segment. */
export function registerMicrosoftIdentityRoutes(app: FastifyInstance, context: EmulatorContext): void {
  registerAuthorizeRoutes(app, `${LOGIN}/:tenant/oauth2/v2.0/authorize`, microsoftAuthorize, context);

  const unknownTenant = (request: FastifyRequest, reply: FastifyReply, tenant: string) => {
    const body = microsoftErrorBody(
      "invalid_tenant",
      90002,
      `Tenant '${tenant}' not found. Check to make sure you have the correct tenant ID and are signing into the correct cloud.`,
      context.clock.now(),
      correlationId(request),
    );
    return reply.code(400).send(body);
  };

  app.get<{ Params: { tenant: string } }>(
    `${LOGIN}/:tenant/v2.0/.well-known/openid-configuration`,
    (request, reply) => {
      if (!isKnownTenant(request.params.tenant)) return unknownTenant(request, reply, request.params.tenant);
      return reply
        .header("cache-control", "max-age=86400, private")
        .send(discovery(emulatorBaseUrl(context, request), request.params.tenant));
    },
  );

  app.get<{ Params: { tenant: string } }>(`${LOGIN}/:tenant/discovery/v2.0/keys`, async (request, reply) => {
    if (!isKnownTenant(request.params.tenant)) return unknownTenant(request, reply, request.params.tenant);
    const { publicJwk } = await context.keys.microsoft;
    return reply.header("cache-control", "max-age=86400, private").send({
      keys: [{ ...publicJwk, issuer: discoveryIssuer(emulatorBaseUrl(context, request), "common") }],
    });
  });

  app.post<{ Params: { tenant: string } }>(`${LOGIN}/:tenant/oauth2/v2.0/token`, async (request, reply) => {
    const body = stringFields(request.body);
    const requestId = correlationId(request);
    if (requestId !== undefined) reply.header("client-request-id", requestId);
    try {
      if (!isKnownTenant(request.params.tenant)) {
        throw new OAuthError("unknown_tenant", { value: request.params.tenant });
      }
      const client = context.clients.authenticate(
        "microsoft",
        readClientCredentials(request.headers.authorization, body),
      );
      const grantType = field(body, "grant_type");
      let issued: IssuedTokens;
      if (grantType === "authorization_code") {
        issued = exchangeAuthorizationCode(context, microsoftPolicy, client, {
          code: field(body, "code"),
          redirectUri: field(body, "redirect_uri"),
          codeVerifier: field(body, "code_verifier"),
        });
      } else if (grantType === "refresh_token") {
        issued = refreshAccessToken(context, microsoftPolicy, client, {
          refreshToken: field(body, "refresh_token"),
          scope: field(body, "scope"),
        });
      } else if (grantType === undefined) {
        throw new OAuthError("missing_parameter", { param: "grant_type" });
      } else {
        throw new OAuthError("unsupported_grant_type", { value: grantType });
      }
      const response = await tokenResponse(context, emulatorBaseUrl(context, request), client, issued);
      return noStore(reply).send(response);
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      request.log.info({ failure: error.failure }, "microsoft token request rejected");
      const { status, body: errorBody } = microsoftTokenError(
        error,
        context.clock.now(),
        correlationId(request),
      );
      return noStore(reply).code(status).send(errorBody);
    }
  });
}
