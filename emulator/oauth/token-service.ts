import type { EmulatorContext } from "../context.ts";
import type { Identity, Provider } from "../identities.ts";
import type { RegisteredClient } from "./clients.ts";
import { OAuthError } from "./errors.ts";
import { verifyCodeVerifier } from "./pkce.ts";
import { isSubset, parseScope } from "./scopes.ts";
import type {
  AccessTokenRecord,
  AuthorizationCodeRecord,
  GrantRecord,
  RefreshTokenRecord,
} from "./tokens.ts";

/** Where Google and Microsoft differ in issuing tokens; everything else is shared. */
export interface TokenPolicy {
  readonly provider: Provider;
  /** Microsoft replaces the refresh token on every use and retires the old one; Google keeps one. */
  readonly rotateRefreshTokens: boolean;
  /** How long a refresh token may sit unused (Google about six months, Microsoft 90 days). */
  readonly refreshTokenIdleSeconds: number;
  readonly accessTokenPrefix: string;
  readonly refreshTokenPrefix: string;
  readonly codePrefix: string;
  /** Whether this redemption returns a refresh token. */
  wantsRefreshToken(code: AuthorizationCodeRecord, clientAlreadyHasOne: boolean): boolean;
  /** Scopes as this provider records and reports them (Google expands `email` and `profile`). */
  normalizeScopes(scopes: readonly string[]): string[];
}

export interface IssuedTokens {
  readonly identity: Identity;
  readonly grant: GrantRecord;
  readonly accessToken: AccessTokenRecord;
  readonly refreshToken: RefreshTokenRecord | undefined;
  /** Only a code redemption carries the nonce into the id_token. */
  readonly nonce: string | undefined;
}

export interface CodeExchangeInput {
  code: string | undefined;
  redirectUri: string | undefined;
  codeVerifier: string | undefined;
}

/** grant_type=authorization_code, after client authentication. */
export function exchangeAuthorizationCode(
  context: EmulatorContext,
  policy: TokenPolicy,
  client: RegisteredClient,
  input: CodeExchangeInput,
): IssuedTokens {
  if (input.code === undefined) throw new OAuthError("missing_parameter", { param: "code" });
  const code = context.tokens.findCode(input.code);
  if (code === undefined || code.provider !== policy.provider) throw new OAuthError("code_unknown");
  // Another client presenting the code must not burn it for its rightful owner.
  if (code.clientId !== client.clientId) throw new OAuthError("code_client_mismatch");
  if (code.redeemedAt !== undefined) {
    // RFC 6749 4.1.2: a replayed code may mean it leaked, so tokens issued from it are revoked.
    if (code.grantId !== undefined) context.tokens.revokeGrant(code.grantId);
    throw new OAuthError("code_reused");
  }
  if (context.clock.now() >= code.expiresAt) throw new OAuthError("code_expired");
  // Single use from here on, even if a later check fails: a client gets one attempt per code.
  code.redeemedAt = context.clock.now();

  if (input.redirectUri === undefined) throw new OAuthError("missing_parameter", { param: "redirect_uri" });
  if (input.redirectUri !== code.redirectUri) {
    throw new OAuthError("redirect_uri_mismatch", { value: input.redirectUri, expected: code.redirectUri });
  }
  if (input.codeVerifier === undefined) throw new OAuthError("code_verifier_missing");
  if (!verifyCodeVerifier(input.codeVerifier, code.codeChallenge, code.codeChallengeMethod)) {
    throw new OAuthError("code_verifier_mismatch");
  }
  const identity = context.identities.find(policy.provider, code.identityId);
  if (identity === undefined) throw new OAuthError("code_unknown");

  const alreadyHasRefresh = context.tokens.hasActiveRefreshToken(
    policy.provider,
    client.clientId,
    identity.id,
  );
  const grant = context.tokens.createGrant(code);
  const accessToken = context.tokens.issueAccessToken(
    grant,
    grant.scopes,
    context.accessTokenTtlSeconds,
    policy.accessTokenPrefix,
  );
  const refreshToken = policy.wantsRefreshToken(code, alreadyHasRefresh)
    ? context.tokens.issueRefreshToken(grant, policy.refreshTokenPrefix)
    : undefined;
  return { identity, grant, accessToken, refreshToken, nonce: code.nonce };
}

export interface RefreshInput {
  refreshToken: string | undefined;
  scope: string | undefined;
}

const REFRESH_FAILURES = {
  unknown: "refresh_token_unknown",
  revoked: "refresh_token_revoked",
  rotated: "refresh_token_rotated",
  expired: "refresh_token_expired",
} as const;

/** grant_type=refresh_token, after client authentication. */
export function refreshAccessToken(
  context: EmulatorContext,
  policy: TokenPolicy,
  client: RegisteredClient,
  input: RefreshInput,
): IssuedTokens {
  if (input.refreshToken === undefined) throw new OAuthError("missing_parameter", { param: "refresh_token" });
  const lookup = context.tokens.lookupRefreshToken(
    input.refreshToken,
    policy.provider,
    policy.refreshTokenIdleSeconds,
  );
  if (lookup.status !== "active") throw new OAuthError(REFRESH_FAILURES[lookup.status]);
  const { token, grant } = lookup;
  if (grant.clientId !== client.clientId) throw new OAuthError("refresh_token_client_mismatch");
  const identity = context.identities.find(policy.provider, grant.identityId);
  if (identity === undefined) throw new OAuthError("refresh_token_revoked");

  // A refresh may narrow the scopes, never widen them.
  const requested = policy.normalizeScopes(parseScope(input.scope));
  if (requested.length > 0 && !isSubset(requested, grant.scopes)) {
    throw new OAuthError("scope_not_granted", { value: input.scope });
  }
  const scopes = requested.length > 0 ? requested : grant.scopes;

  token.lastUsedAt = context.clock.now();
  const accessToken = context.tokens.issueAccessToken(
    grant,
    scopes,
    context.accessTokenTtlSeconds,
    policy.accessTokenPrefix,
  );
  let refreshToken: RefreshTokenRecord | undefined;
  if (policy.rotateRefreshTokens) {
    token.rotatedAt = context.clock.now();
    refreshToken = context.tokens.issueRefreshToken(grant, policy.refreshTokenPrefix);
  }
  return { identity, grant, accessToken, refreshToken, nonce: undefined };
}
