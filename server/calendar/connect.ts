import type { CalendarProvider } from "../../contract/calendar.ts";
import { CALENDAR_CONNECT_FAILURES } from "../../contract/calendar-connect.ts";
import type { AccountService } from "../auth/accounts.ts";
import { authorizationUrl, type ExchangedCode, exchangeCode } from "../auth/code-flow.ts";
import { toProviderError } from "../auth/errors.ts";
import type { OAuthProvider, OAuthProviders } from "../auth/oauth-clients.ts";
import { tokensFrom } from "../auth/provider-tokens.ts";
import type { StateStore } from "../auth/state-store.ts";
import type { Config } from "../config.ts";
import { DomainError } from "../http/errors.ts";
import type { Clock } from "../lib/clock.ts";
import type { ConnectTickets } from "./connect-tickets.ts";
import { type CalendarIntegrations, calendarProviderOf } from "./integrations.ts";
import { oauthProviderOf } from "./token-rows.ts";

/**
 * Incremental consent (decision 0026): mail sign-in asks for no calendar scope; connecting a
 * calendar asks for calendar read and write only, plus what identifies the person (openid; Graph
 * /me needs User.Read, which mail sign-in already granted) so we can check it is the same account.
 */
export const CALENDAR_SCOPES: Record<CalendarProvider, string> = {
  google:
    "openid email https://www.googleapis.com/auth/calendar.readonly https://www.googleapis.com/auth/calendar.events",
  outlook: "openid offline_access User.Read Calendars.ReadWrite",
};

/** The flow's refusals; their texts are the dashboard's too (the redirect carries only a code). */
export const CONNECT_MESSAGES = {
  failed: CALENDAR_CONNECT_FAILURES.failed,
  cancelled: CALENDAR_CONNECT_FAILURES.cancelled,
  otherAccount: CALENDAR_CONNECT_FAILURES.other_account,
  noAccount: CALENDAR_CONNECT_FAILURES.no_account,
} as const;

export function calendarCallbackPath(provider: CalendarProvider): string {
  return `/api/auth/${provider}/calendar/callback`;
}

export function createCalendarConnect(deps: {
  config: Pick<Config, "publicUrl" | "providers">;
  providers: OAuthProviders;
  states: StateStore;
  tickets: ConnectTickets;
  accounts: AccountService;
  integrations: CalendarIntegrations;
  clock: Clock;
  /** A calendar was connected (or repaired): start its first sync. */
  onConnected: (integration: { userId: string; id: string }) => void;
}) {
  const { config, providers, states, tickets, accounts, integrations, clock } = deps;

  function clientFor(provider: CalendarProvider): OAuthProvider {
    const p = providers[oauthProviderOf(provider)];
    if (!p) throw new DomainError("service_unavailable", "This calendar provider is not configured.");
    return p;
  }

  async function mailboxesOf(userId: string, provider: CalendarProvider) {
    return (await accounts.list(userId)).filter((a) => calendarProviderOf(a.provider) === provider);
  }

  /**
   * The mailbox whose calendar to connect: the one named, else the first of that provider; none
   * (a calendar-only connection, any account at the consent page) when asked for, or when the
   * person has no mailbox of that provider.
   */
  async function accountFor(
    userId: string,
    provider: CalendarProvider,
    accountId: string | undefined,
    calendarOnly = false,
  ) {
    if (calendarOnly && accountId === undefined) return undefined;
    const owned = await mailboxesOf(userId, provider);
    if (accountId === undefined) return owned[0];
    const account = owned.find((a) => a.id === accountId);
    if (!account) throw new DomainError("not_found", CONNECT_MESSAGES.noAccount);
    return account;
  }

  return {
    /** The authenticated call: a one-time ticket for the navigation URL (never the session token). */
    async mintUrl(input: {
      userId: string;
      sessionId: string;
      provider: CalendarProvider;
      accountId: string | undefined;
      calendarOnly?: boolean;
      flowId: string;
    }): Promise<string> {
      clientFor(input.provider);
      const account = await accountFor(input.userId, input.provider, input.accountId, input.calendarOnly);
      const ticket = await tickets.mint({
        userId: input.userId,
        sessionId: input.sessionId,
        flowId: input.flowId,
      });
      const query = new URLSearchParams({ ticket, ...(account ? { account: account.id } : {}) });
      return `/api/auth/${input.provider}/calendar?${query.toString()}`;
    },

    /** The navigation: spends the ticket and answers the provider's consent URL. */
    async start(input: {
      provider: CalendarProvider;
      ticket: string | undefined;
      accountId: string | undefined;
      flowId: string | undefined;
    }): Promise<string> {
      const p = clientFor(input.provider);
      const { userId, sessionId } = await tickets.redeem({ ticket: input.ticket, flowId: input.flowId });
      // The minted URL names the mailbox; without one it is a calendar-only connection.
      const account =
        input.accountId === undefined ? undefined : await accountFor(userId, input.provider, input.accountId);
      const redirectUri = `${config.publicUrl}${calendarCallbackPath(input.provider)}`;
      const { state, codeVerifier, nonce } = await states.create({
        provider: oauthProviderOf(input.provider),
        flowId: input.flowId ?? "",
        redirectUri,
        link: { userId, sessionId },
        purpose: "calendar",
        ...(account ? { calendarAccountId: account.id } : {}),
      });
      const url = await authorizationUrl(p, {
        redirectUri,
        scope: CALENDAR_SCOPES[input.provider],
        state,
        nonce,
        codeVerifier,
      });
      if (account) url.searchParams.set("login_hint", account.email);
      // Google returns a refresh token for this grant only with offline access and a fresh consent.
      if (input.provider === "google") {
        url.searchParams.set("access_type", "offline");
        url.searchParams.set("prompt", "consent");
      }
      return url.href;
    },

    /** The provider's return: checks state, browser and person, stores the calendar grant. */
    async complete(input: {
      provider: CalendarProvider;
      query: Record<string, string>;
      flowId: string | undefined;
    }): Promise<{ integrationId: string; email: string }> {
      const p = clientFor(input.provider);
      const pending = await states.consume({
        provider: oauthProviderOf(input.provider),
        state: input.query.state,
        flowId: input.flowId,
        purpose: "calendar",
      });
      if (input.query.error) {
        throw new DomainError(
          "bad_request",
          input.query.error === "access_denied" ? CONNECT_MESSAGES.cancelled : CONNECT_MESSAGES.failed,
        );
      }
      if (!input.query.code || !pending.linkUserId) {
        throw new DomainError("bad_request", CONNECT_MESSAGES.failed);
      }
      const userId = pending.linkUserId;
      const chosen = pending.calendarAccountId ? await accounts.get(userId, pending.calendarAccountId) : null;
      if (pending.calendarAccountId && !chosen)
        throw new DomainError("not_found", CONNECT_MESSAGES.noAccount);

      let exchanged: ExchangedCode;
      try {
        exchanged = await exchangeCode(p, config.providers.graph, input.query, pending);
      } catch (err) {
        const cause = toProviderError(err, `${input.provider} calendar consent`);
        const error = new DomainError(
          cause.kind === "transient" || cause.kind === "rate_limit" ? "provider_unavailable" : "bad_request",
          CONNECT_MESSAGES.failed,
        );
        error.cause = cause;
        throw error;
      }
      const { tokenResponse, identity } = exchanged;
      // The grant must belong to the mailbox the person chose, not whoever was signed in at Google.
      if (chosen && identity.providerAccountId !== chosen.providerAccountId) {
        throw new DomainError("conflict", CONNECT_MESSAGES.otherAccount);
      }
      // A calendar-only grant for an account that is also one of the person's mailboxes joins it.
      const account =
        chosen ??
        (await mailboxesOf(userId, input.provider)).find(
          (a) => a.providerAccountId === identity.providerAccountId,
        );
      const email = account?.email ?? identity.email;
      const saved = await integrations.saveGrant({
        userId,
        accountId: account?.id ?? null,
        provider: input.provider,
        providerAccountId: identity.providerAccountId,
        email,
        tokens: tokensFrom(tokenResponse, clock.nowMs()),
      });
      deps.onConnected({ userId, id: saved.id });
      return { integrationId: saved.id, email };
    },
  };
}

export type CalendarConnect = ReturnType<typeof createCalendarConnect>;
