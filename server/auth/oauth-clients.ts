import { createRemoteJWKSet, type JWTVerifyGetKey } from "jose";
import * as oauth from "oauth4webapi";
import type { MailProvider } from "../../contract/auth.ts";
import type { Config } from "../config.ts";

/** Everything needed to run the code flow against one provider, built from config (no discovery). */
export interface OAuthProvider {
  readonly provider: MailProvider;
  readonly as: oauth.AuthorizationServer;
  readonly client: oauth.Client;
  readonly clientAuth: oauth.ClientAuth;
  readonly scope: string;
  /** Added to the authorization URL beside the standard parameters. */
  readonly extraAuthorizeParams: Readonly<Record<string, string>>;
  /** Google verifies id_token signatures against its JWKS; Microsoft reads identity from Graph. */
  readonly jwks: JWTVerifyGetKey | undefined;
}

const GOOGLE_SCOPES = [
  "openid",
  "email",
  "profile",
  "https://www.googleapis.com/auth/gmail.modify",
  "https://www.googleapis.com/auth/gmail.send",
];
const MICROSOFT_SCOPES = [
  "openid",
  "profile",
  "email",
  "offline_access",
  "User.Read",
  "Mail.ReadWrite",
  "Mail.Send",
];

/** How long any single call to a provider may take before we give up on it. */
const PROVIDER_TIMEOUT_MS = 10_000;

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

/**
 * oauth4webapi refuses plain http. The emulator (and test servers) run on http://127.0.0.1, so we
 * allow http for loopback hosts only; any other http URL still fails loudly.
 */
export function isLoopbackHttp(url: string | URL): boolean {
  const u = typeof url === "string" ? new URL(url) : url;
  return u.protocol === "http:" && LOOPBACK_HOSTS.has(u.hostname);
}

/** Per-request options for oauth4webapi calls to `url`: loopback http allowance and a timeout. */
export function requestOptions(url: string | URL | undefined): {
  [oauth.allowInsecureRequests]?: boolean;
  signal: AbortSignal;
} {
  const signal = AbortSignal.timeout(PROVIDER_TIMEOUT_MS);
  return url !== undefined && isLoopbackHttp(url)
    ? { [oauth.allowInsecureRequests]: true, signal }
    : { signal };
}

export function providerFetchSignal(): AbortSignal {
  return AbortSignal.timeout(PROVIDER_TIMEOUT_MS);
}

/**
 * oauth4webapi compares an id_token's `iss` with `as.issuer`, but Microsoft's multi-tenant
 * endpoints issue tokens whose issuer names the user's tenant (`.../{tid}/v2.0`). The library
 * exposes this hook (used by openid-client for Entra ID) to compute the expected issuer per token;
 * it is exported at runtime but not in the typings, so we look it up and fail fast if it is gone.
 */
const expectedIssuerHook: unknown = Reflect.get(oauth, "_expectedIssuer");
if (typeof expectedIssuerHook !== "symbol") {
  throw new Error("oauth4webapi no longer exports _expectedIssuer; update the Microsoft issuer check");
}
type IssuerResolver = (result: { claims: Record<string, unknown> }) => string;

function withIssuerResolver(
  as: oauth.AuthorizationServer,
  resolve: IssuerResolver,
): oauth.AuthorizationServer {
  Object.defineProperty(as, expectedIssuerHook as symbol, { value: resolve, enumerable: false });
  return as;
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function googleProvider(config: Config): OAuthProvider | undefined {
  if (!config.google) return undefined;
  const p = config.providers;
  // Google's issuer is its accounts host, so under the emulator it becomes {EMU}/accounts.google.com.
  const as: oauth.AuthorizationServer = {
    issuer: p.googleAccounts,
    authorization_endpoint: `${p.googleAccounts}/o/oauth2/v2/auth`,
    token_endpoint: `${p.googleOAuth2}/token`,
    revocation_endpoint: `${p.googleOAuth2}/revoke`,
    userinfo_endpoint: `${p.googleOpenId}/v1/userinfo`,
    jwks_uri: `${p.googleApis}/oauth2/v3/certs`,
    code_challenge_methods_supported: ["S256"],
  };
  // Real Google id_tokens may carry the issuer without its scheme.
  withIssuerResolver(as, ({ claims }) =>
    claims.iss === "accounts.google.com" && as.issuer === "https://accounts.google.com"
      ? "accounts.google.com"
      : as.issuer,
  );
  return {
    provider: "gmail",
    as,
    client: { client_id: config.google.clientId },
    clientAuth: oauth.ClientSecretPost(config.google.clientSecret),
    scope: GOOGLE_SCOPES.join(" "),
    // A refresh token comes back only with offline access and a fresh consent.
    extraAuthorizeParams: { access_type: "offline", prompt: "consent" },
    jwks: createRemoteJWKSet(new URL(as.jwks_uri as string), { timeoutDuration: PROVIDER_TIMEOUT_MS }),
  };
}

function microsoftProvider(config: Config): OAuthProvider | undefined {
  if (!config.microsoft) return undefined;
  const login = config.providers.microsoftLogin;
  const tenant = config.microsoft.tenant;
  const as: oauth.AuthorizationServer = {
    issuer: `${login}/${tenant}/v2.0`,
    authorization_endpoint: `${login}/${tenant}/oauth2/v2.0/authorize`,
    token_endpoint: `${login}/${tenant}/oauth2/v2.0/token`,
    code_challenge_methods_supported: ["S256"],
  };
  withIssuerResolver(as, ({ claims }) =>
    typeof claims.tid === "string" && GUID.test(claims.tid) ? `${login}/${claims.tid}/v2.0` : as.issuer,
  );
  return {
    provider: "outlook",
    as,
    client: { client_id: config.microsoft.clientId },
    clientAuth: oauth.ClientSecretPost(config.microsoft.clientSecret),
    scope: MICROSOFT_SCOPES.join(" "),
    extraAuthorizeParams: {},
    jwks: undefined,
  };
}

export type OAuthProviders = Partial<Record<MailProvider, OAuthProvider>>;

/** The providers with credentials configured; a missing one makes its sign-in answer 503. */
export function buildOAuthProviders(config: Config): OAuthProviders {
  const providers: OAuthProviders = {};
  const google = googleProvider(config);
  if (google) providers.gmail = google;
  const microsoft = microsoftProvider(config);
  if (microsoft) providers.outlook = microsoft;
  return providers;
}
