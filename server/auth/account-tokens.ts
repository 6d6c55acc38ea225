import { and, eq } from "drizzle-orm";
import * as oauth from "oauth4webapi";
import type { MailProvider } from "../../contract/auth.ts";
import type { Db } from "../db/client.ts";
import { mailAccounts } from "../db/schema.ts";
import { DomainError } from "../http/errors.ts";
import type { Clock } from "../lib/clock.ts";
import { domainErrorFor, ProviderError, toProviderError } from "./errors.ts";
import { type OAuthProviders, requestOptions } from "./oauth-clients.ts";
import { tokensFrom } from "./provider-tokens.ts";
import type { TokenVault } from "./token-vault.ts";

/** Refresh this long before the provider's expiry, so a token never dies mid-request. */
export const REFRESH_MARGIN_MS = 5 * 60_000;

/**
 * Hands out a live access token for a connected account, refreshing it when it is about to
 * expire. The provider decides rotation: Google keeps its refresh token (none comes back),
 * Microsoft sends a new one on every use and the old one must be replaced.
 */
export function createAccountTokenService(
  db: Db,
  clock: Clock,
  vault: TokenVault,
  providers: OAuthProviders,
) {
  // One refresh per account at a time in this process: with rotation, two parallel refreshes
  // would race to store different refresh tokens.
  const inFlight = new Map<string, { run: Promise<string>; force: boolean }>();

  async function markReauthRequired(userId: string, accountId: string): Promise<void> {
    await db
      .update(mailAccounts)
      .set({ status: "reauth_required", updatedAt: clock.now() })
      .where(and(eq(mailAccounts.id, accountId), eq(mailAccounts.userId, userId)));
  }

  async function refresh(userId: string, accountId: string, force: boolean): Promise<string> {
    const [account] = await db
      .select()
      .from(mailAccounts)
      .where(and(eq(mailAccounts.id, accountId), eq(mailAccounts.userId, userId)));
    if (!account) throw new DomainError("not_found", "No such account.");
    const provider = account.provider as MailProvider;
    if (account.status === "reauth_required")
      throw domainErrorFor(new ProviderError("reauth", "reauth"), provider);

    const expiresAt = account.accessTokenExpiresAt?.getTime();
    // A provider 401 means the token died before its stated expiry (revoked, clock skew): force a refresh.
    if (!force && (expiresAt === undefined || expiresAt - clock.nowMs() > REFRESH_MARGIN_MS)) {
      return vault.decrypt(account.accessTokenCiphertext, "provider-access-token");
    }

    const p = providers[provider];
    if (!p) throw new DomainError("service_unavailable", `Sign-in with ${provider} is not configured.`);
    if (!account.refreshTokenCiphertext) {
      await markReauthRequired(userId, accountId);
      throw domainErrorFor(new ProviderError("reauth", "no refresh token"), provider);
    }
    const refreshToken = vault.decrypt(account.refreshTokenCiphertext, "provider-refresh-token");
    let tokens: ReturnType<typeof tokensFrom>;
    try {
      const response = await oauth.refreshTokenGrantRequest(
        p.as,
        p.client,
        p.clientAuth,
        refreshToken,
        requestOptions(p.as.token_endpoint),
      );
      tokens = tokensFrom(await oauth.processRefreshTokenResponse(p.as, p.client, response), clock.nowMs());
    } catch (err) {
      const failure = toProviderError(err, `${provider} token refresh`);
      if (failure.kind === "reauth") await markReauthRequired(userId, accountId);
      throw domainErrorFor(failure, provider);
    }
    await db
      .update(mailAccounts)
      .set({
        accessTokenCiphertext: vault.encrypt(tokens.accessToken, "provider-access-token"),
        accessTokenExpiresAt: tokens.expiresAt,
        ...(tokens.refreshToken
          ? { refreshTokenCiphertext: vault.encrypt(tokens.refreshToken, "provider-refresh-token") }
          : {}),
        ...(tokens.scope ? { scope: tokens.scope } : {}),
        updatedAt: clock.now(),
      })
      .where(and(eq(mailAccounts.id, accountId), eq(mailAccounts.userId, userId)));
    return tokens.accessToken;
  }

  return {
    /**
     * A usable access token for the user's account. Throws DomainError
     * `provider_reauth_required` when the grant is gone (the account is marked so), and
     * `provider_unavailable` when the provider failed in a way a later retry may fix.
     * `forceRefresh` refreshes even when the stored token looks fresh (after a provider 401).
     */
    getAccessToken(
      userId: string,
      accountId: string,
      options: { forceRefresh?: boolean } = {},
    ): Promise<string> {
      const force = options.forceRefresh === true;
      const key = `${userId}:${accountId}`;
      const pending = inFlight.get(key);
      if (pending && (pending.force || !force)) return pending.run;
      // A forced refresh waits for an ordinary one in flight: with rotation, two refreshes at once
      // would race, and the ordinary one may hand back the very token the provider just refused.
      const before = pending ? pending.run.catch(() => undefined) : Promise.resolve(undefined);
      const run = before
        .then(() => refresh(userId, accountId, force))
        .finally(() => {
          if (inFlight.get(key)?.run === run) inFlight.delete(key);
        });
      inFlight.set(key, { run, force });
      return run;
    },
  };
}

export type AccountTokenService = ReturnType<typeof createAccountTokenService>;
