import type { MailProvider } from "../../contract/auth.ts";
import type { AccountTokenService } from "../auth/account-tokens.ts";
import type { Config } from "../config.ts";
import { createGmailProvider } from "./gmail/adapter.ts";
import type { RetrySettings } from "./http/retry.ts";
import type { MailProviderClient } from "./mail-provider.ts";
import { createOutlookProvider } from "./outlook/adapter.ts";

/** Where Gmail watch() asks Google to publish; GMAIL_PUSH_TOPIC overrides it through config. */
export const DEFAULT_GMAIL_PUSH_TOPIC = "projects/mailwise/topics/gmail";

/** The mail_accounts fields a client needs; never the token columns (the token service reads those). */
export interface ProviderAccount {
  id: string;
  userId: string;
  provider: MailProvider | string;
  email: string;
  displayName: string;
}

export interface MailProviderClientInput {
  account: ProviderAccount;
  /** Base URLs; optional Gmail push topic and quota when config provides them. */
  config: Pick<Config, "providers"> & { gmailPushTopic?: string; gmailUnitsPerMinute?: number };
  accountTokens: Pick<AccountTokenService, "getAccessToken">;
  /** Tests shorten timeouts and backoff. */
  tuning?: { timeoutMs?: number; retry?: Partial<RetrySettings> };
}

/** Builds the adapter for one connected account (`mail_accounts` row). */
export function createMailProviderClient(input: MailProviderClientInput): MailProviderClient {
  const { account, config, accountTokens, tuning } = input;
  const token = (options?: { forceRefresh?: boolean }) =>
    accountTokens.getAccessToken(account.userId, account.id, options);
  // Limiters are keyed by account id: every client of this mailbox in the process shares them.
  const common = { accountKey: `${account.provider}:${account.id}`, token, ...tuning };
  switch (account.provider) {
    case "gmail":
      return createGmailProvider({
        ...common,
        baseUrl: config.providers.gmail,
        pushTopic: config.gmailPushTopic ?? DEFAULT_GMAIL_PUSH_TOPIC,
        ...(config.gmailUnitsPerMinute ? { unitsPerMinute: config.gmailUnitsPerMinute } : {}),
        from: { name: account.displayName, address: account.email },
      });
    case "outlook":
      return createOutlookProvider({
        ...common,
        baseUrl: config.providers.graph,
        from: { name: account.displayName, address: account.email },
      });
    default:
      throw new RangeError(`unknown mail provider: ${account.provider}`);
  }
}
