import * as oauth from "oauth4webapi";
import type { MailProvider } from "../../contract/auth.ts";
import type { AccountService } from "./accounts.ts";
import { type ProviderError, toProviderError } from "./errors.ts";
import { type OAuthProviders, requestOptions } from "./oauth-clients.ts";
import type { TokenVault } from "./token-vault.ts";

export interface DisconnectResult {
  /** Set when the provider could not be told; the account is gone from Mailwise regardless. */
  revokeFailure: ProviderError | undefined;
}

/**
 * Revokes one grant at its provider with the stored tokens: Google has a revocation endpoint
 * (revoking the refresh token also kills its access tokens); Microsoft offers none to apps, so
 * there is nothing to call and dropping the tokens is all that can be done. Answers the failure
 * instead of throwing: revocation is best effort.
 */
export async function revokeGrant(
  providers: OAuthProviders,
  vault: TokenVault,
  provider: MailProvider,
  tokens: { refreshTokenCiphertext: string | null; accessTokenCiphertext: string },
): Promise<ProviderError | undefined> {
  const p = providers[provider];
  if (!p?.as.revocation_endpoint) return undefined;
  const token = tokens.refreshTokenCiphertext
    ? vault.decrypt(tokens.refreshTokenCiphertext, "provider-refresh-token")
    : vault.decrypt(tokens.accessTokenCiphertext, "provider-access-token");
  try {
    const response = await oauth.revocationRequest(
      p.as,
      p.client,
      p.clientAuth,
      token,
      requestOptions(p.as.revocation_endpoint),
    );
    await oauth.processRevocationResponse(response);
    return undefined;
  } catch (err) {
    return toProviderError(err, `${p.provider} token revocation`);
  }
}

/** Stops an account's push channel before it is removed (sync/push-stop.ts, wired in services.ts). */
export interface PushStopper {
  stop(userId: string, accountId: string): Promise<{ reopen(): Promise<void> }>;
}

/**
 * Disconnects a mailbox: stops its push channel, deletes the account and its data, then revokes our grant at the
 * provider so the tokens are useless even if a copy survived somewhere. Google has a revocation
 * endpoint (revoking the refresh token also kills its access tokens); Microsoft offers none to
 * apps, so dropping the tokens is all we can do there. Revocation is best effort: the user asked
 * to be disconnected, and a provider outage must not keep their data here.
 */
export function createDisconnectService(
  accounts: AccountService,
  vault: TokenVault,
  providers: OAuthProviders,
  onRemoved: (account: { userId: string; accountId: string }) => void = () => undefined,
  push?: PushStopper,
) {
  return {
    async disconnect(userId: string, accountId: string): Promise<DisconnectResult> {
      // The mailbox stops telling us about its changes, while its tokens still work. Not for a
      // disconnect that will be refused (the person's only account, or not theirs); one refused
      // anyway by a racing disconnect gets its push back.
      const owned = await accounts.list(userId);
      const stopped =
        push && owned.length > 1 && owned.some((a) => a.id === accountId)
          ? await push.stop(userId, accountId)
          : undefined;
      let removed: Awaited<ReturnType<AccountService["remove"]>>;
      try {
        removed = await accounts.remove(userId, accountId);
      } catch (err) {
        await stopped?.reopen();
        throw err;
      }
      onRemoved({ userId, accountId });
      const revokeFailure = await revokeGrant(providers, vault, removed.provider as MailProvider, removed);
      return { revokeFailure };
    },
  };
}

export type DisconnectService = ReturnType<typeof createDisconnectService>;
