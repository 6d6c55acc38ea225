import { randomBytes } from "node:crypto";
import type { Clock } from "../clock.ts";
import type { Provider } from "../identities.ts";
import type { CodeChallengeMethod } from "./pkce.ts";

/** Both providers let an authorization code live about ten minutes. */
export const AUTHORIZATION_CODE_TTL_MS = 10 * 60 * 1000;

export interface AuthorizationCodeRecord {
  readonly value: string;
  readonly provider: Provider;
  readonly clientId: string;
  readonly redirectUri: string;
  readonly identityId: string;
  /** Scopes as the provider grants them (Google expands `email` to its URL form). */
  readonly scopes: readonly string[];
  readonly codeChallenge: string;
  readonly codeChallengeMethod: CodeChallengeMethod;
  readonly nonce: string | undefined;
  /** Google's access_type=offline. */
  readonly offline: boolean;
  /** prompt included `consent`. */
  readonly forceConsent: boolean;
  readonly expiresAt: number;
  redeemedAt: number | undefined;
  /** The grant the first redemption created; revoked if the code is replayed. */
  grantId: string | undefined;
}

/** One authorization: what a code redemption creates and every token derived from it shares. */
export interface GrantRecord {
  readonly id: string;
  readonly provider: Provider;
  readonly clientId: string;
  readonly identityId: string;
  readonly scopes: readonly string[];
  readonly createdAt: number;
  revokedAt: number | undefined;
}

export interface AccessTokenRecord {
  readonly value: string;
  readonly grantId: string;
  readonly scopes: readonly string[];
  readonly issuedAt: number;
  expiresAt: number;
}

export interface RefreshTokenRecord {
  readonly value: string;
  readonly grantId: string;
  readonly issuedAt: number;
  lastUsedAt: number;
  /** Set when Microsoft replaced this token with a new one. */
  rotatedAt: number | undefined;
}

export type AccessTokenLookup =
  | { status: "active"; token: AccessTokenRecord; grant: GrantRecord }
  | { status: "unknown" | "expired" | "revoked" };

export type RefreshTokenLookup =
  | { status: "active"; token: RefreshTokenRecord; grant: GrantRecord }
  | { status: "unknown" | "expired" | "revoked" | "rotated" };

export interface TokenCounts {
  authorizationCodes: { total: number; redeemed: number };
  grants: { total: number; active: number };
  accessTokens: { total: number; active: number };
  refreshTokens: { total: number; active: number };
}

export type CodeInput = Omit<AuthorizationCodeRecord, "value" | "expiresAt" | "redeemedAt" | "grantId">;

function opaque(prefix: string, bytes: number): string {
  return `${prefix}${randomBytes(bytes).toString("base64url")}`;
}

/**
 * In-memory record of every code and token the emulator issued. Tokens are opaque random
 * strings; validity is decided here, from the grant's revocation and the emulator clock.
 */
export class TokenStore {
  readonly #clock: Clock;
  #codes = new Map<string, AuthorizationCodeRecord>();
  #grants = new Map<string, GrantRecord>();
  #access = new Map<string, AccessTokenRecord>();
  #refresh = new Map<string, RefreshTokenRecord>();

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  createCode(input: CodeInput, prefix: string): AuthorizationCodeRecord {
    this.#forgetStaleCodes();
    const record: AuthorizationCodeRecord = {
      ...input,
      value: opaque(prefix, 32),
      expiresAt: this.#clock.now() + AUTHORIZATION_CODE_TTL_MS,
      redeemedAt: undefined,
      grantId: undefined,
    };
    this.#codes.set(record.value, record);
    return record;
  }

  findCode(value: string): AuthorizationCodeRecord | undefined {
    return this.#codes.get(value);
  }

  createGrant(code: AuthorizationCodeRecord): GrantRecord {
    const grant: GrantRecord = {
      id: opaque("", 12),
      provider: code.provider,
      clientId: code.clientId,
      identityId: code.identityId,
      scopes: code.scopes,
      createdAt: this.#clock.now(),
      revokedAt: undefined,
    };
    this.#grants.set(grant.id, grant);
    code.grantId = grant.id;
    return grant;
  }

  issueAccessToken(
    grant: GrantRecord,
    scopes: readonly string[],
    ttlSeconds: number,
    prefix: string,
  ): AccessTokenRecord {
    const now = this.#clock.now();
    const token: AccessTokenRecord = {
      value: opaque(prefix, 48),
      grantId: grant.id,
      scopes,
      issuedAt: now,
      expiresAt: now + ttlSeconds * 1000,
    };
    this.#access.set(token.value, token);
    return token;
  }

  issueRefreshToken(grant: GrantRecord, prefix: string): RefreshTokenRecord {
    const now = this.#clock.now();
    const token: RefreshTokenRecord = {
      value: opaque(prefix, 48),
      grantId: grant.id,
      issuedAt: now,
      lastUsedAt: now,
      rotatedAt: undefined,
    };
    this.#refresh.set(token.value, token);
    return token;
  }

  lookupAccessToken(value: string, provider: Provider): AccessTokenLookup {
    const token = this.#access.get(value);
    const grant = token === undefined ? undefined : this.#grants.get(token.grantId);
    if (token === undefined || grant === undefined || grant.provider !== provider)
      return { status: "unknown" };
    if (grant.revokedAt !== undefined) return { status: "revoked" };
    if (this.#clock.now() >= token.expiresAt) return { status: "expired" };
    return { status: "active", token, grant };
  }

  /** idleSeconds: how long a refresh token may go unused before the provider drops it. */
  lookupRefreshToken(value: string, provider: Provider, idleSeconds: number): RefreshTokenLookup {
    const token = this.#refresh.get(value);
    const grant = token === undefined ? undefined : this.#grants.get(token.grantId);
    if (token === undefined || grant === undefined || grant.provider !== provider)
      return { status: "unknown" };
    if (grant.revokedAt !== undefined) return { status: "revoked" };
    if (token.rotatedAt !== undefined) return { status: "rotated" };
    if (this.#clock.now() >= token.lastUsedAt + idleSeconds * 1000) return { status: "expired" };
    return { status: "active", token, grant };
  }

  /** The grant an access or refresh token belongs to, whatever its state. */
  grantOfToken(value: string, provider: Provider): GrantRecord | undefined {
    const token = this.#access.get(value) ?? this.#refresh.get(value);
    const grant = token === undefined ? undefined : this.#grants.get(token.grantId);
    return grant?.provider === provider ? grant : undefined;
  }

  hasActiveRefreshToken(provider: Provider, clientId: string, identityId: string): boolean {
    for (const token of this.#refresh.values()) {
      const grant = this.#grants.get(token.grantId);
      if (
        grant?.provider === provider &&
        grant.clientId === clientId &&
        grant.identityId === identityId &&
        grant.revokedAt === undefined &&
        token.rotatedAt === undefined
      ) {
        return true;
      }
    }
    return false;
  }

  /** Revokes matching grants and with them every token they issued; returns how many. */
  revokeGrants(match: {
    provider: Provider;
    identityId: string;
    clientId?: string;
    grantId?: string;
  }): number {
    let revoked = 0;
    for (const grant of this.#grants.values()) {
      if (
        grant.revokedAt === undefined &&
        grant.provider === match.provider &&
        grant.identityId === match.identityId &&
        (match.clientId === undefined || grant.clientId === match.clientId) &&
        (match.grantId === undefined || grant.id === match.grantId)
      ) {
        grant.revokedAt = this.#clock.now();
        revoked += 1;
      }
    }
    return revoked;
  }

  revokeGrant(grantId: string): void {
    const grant = this.#grants.get(grantId);
    if (grant !== undefined && grant.revokedAt === undefined) grant.revokedAt = this.#clock.now();
  }

  /** Makes one access token expire now; returns whether it existed and was still unexpired. */
  expireAccessToken(value: string): boolean {
    const token = this.#access.get(value);
    const now = this.#clock.now();
    if (token === undefined || token.expiresAt <= now) return false;
    token.expiresAt = now;
    return true;
  }

  expireAccessTokensOf(provider: Provider, identityId: string): number {
    let expired = 0;
    for (const token of this.#access.values()) {
      const grant = this.#grants.get(token.grantId);
      if (
        grant?.provider === provider &&
        grant.identityId === identityId &&
        this.expireAccessToken(token.value)
      ) {
        expired += 1;
      }
    }
    return expired;
  }

  counts(refreshIdleSeconds: (provider: Provider) => number): TokenCounts {
    const codes = [...this.#codes.values()];
    const grants = [...this.#grants.values()];
    const accessTokens = [...this.#access.values()];
    const refreshTokens = [...this.#refresh.values()];
    const grantOf = (grantId: string) => this.#grants.get(grantId);
    return {
      authorizationCodes: {
        total: codes.length,
        redeemed: codes.filter((code) => code.redeemedAt !== undefined).length,
      },
      grants: {
        total: grants.length,
        active: grants.filter((grant) => grant.revokedAt === undefined).length,
      },
      accessTokens: {
        total: accessTokens.length,
        active: accessTokens.filter((token) => {
          const grant = grantOf(token.grantId);
          return (
            grant !== undefined && this.lookupAccessToken(token.value, grant.provider).status === "active"
          );
        }).length,
      },
      refreshTokens: {
        total: refreshTokens.length,
        active: refreshTokens.filter((token) => {
          const grant = grantOf(token.grantId);
          return (
            grant !== undefined &&
            this.lookupRefreshToken(token.value, grant.provider, refreshIdleSeconds(grant.provider))
              .status === "active"
          );
        }).length,
      },
    };
  }

  reset(): void {
    this.#codes = new Map();
    this.#grants = new Map();
    this.#access = new Map();
    this.#refresh = new Map();
  }

  // Codes are only interesting until they expire (plus a margin to report reuse); keep the map small.
  #forgetStaleCodes(): void {
    const cutoff = this.#clock.now() - 60 * 60 * 1000;
    for (const [value, code] of this.#codes) {
      if (code.expiresAt < cutoff) this.#codes.delete(value);
    }
  }
}
