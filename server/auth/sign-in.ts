import type { MailProvider } from "../../contract/auth.ts";
import type { Config } from "../config.ts";
import { DomainError } from "../http/errors.ts";
import type { Clock } from "../lib/clock.ts";
import type { AccountService } from "./accounts.ts";
import { authorizationUrl, type ExchangedCode, exchangeCode } from "./code-flow.ts";
import { type ProviderError, providerName, toProviderError } from "./errors.ts";
import type { OAuthProvider, OAuthProviders } from "./oauth-clients.ts";
import { tokensFrom } from "./provider-tokens.ts";
import type { SessionService } from "./sessions.ts";
import type { StateStore } from "./state-store.ts";
import type { TicketStore } from "./tickets.ts";

/**
 * page: the provider returns to the SPA's /auth/callback, which calls our callback with fetch.
 * redirect: the provider returns straight to our callback, which answers with a redirect.
 */
export type CallbackMode = "page" | "redirect";

export const SIGN_IN_MESSAGES = {
  failed: "Authentication failed",
  cancelled: "Authentication was cancelled or failed",
  noCode: "No authorization code received",
  claimed: "Signed in",
} as const;

/**
 * How long the server redirect's handoff lives: the callback page redeems it as soon as it loads,
 * so two minutes cover a slow phone without leaving a usable value around.
 */
export const HANDOFF_TTL_SECONDS = 120;
/** How long the session that started a link stays usable after the link answered its successor. */
export const LINK_GRACE_MS = 30_000;

export interface SignInResult {
  /**
   * session: the page's fetch gets a session token in its JSON answer. handoff: a browser
   * navigation gets a single-use handoff for the URL instead (decision 0017); only this browser
   * can trade it for a session, once, within HANDOFF_TTL_SECONDS.
   */
  grant: { kind: "session"; sessionToken: string } | { kind: "handoff"; handoff: string };
  userId: string;
  /** True when an account was connected to an already signed-in user. */
  linked: boolean;
  message: string;
}

/** A sign-in failure, with the provider failure behind it (for logs) when there was one. */
function failure(message: string, cause?: ProviderError): DomainError {
  const error = new DomainError("bad_request", message);
  if (cause) error.cause = cause;
  return error;
}

export function createSignInService(deps: {
  config: Pick<Config, "publicUrl" | "providers">;
  providers: OAuthProviders;
  states: StateStore;
  tickets: TicketStore;
  accounts: AccountService;
  sessions: SessionService;
  clock: Clock;
  /** Told about every account a sign-in created or repaired (the sync engine starts its sync). */
  onAccountConnected?: (account: { userId: string; accountId: string }) => Promise<void>;
}) {
  const { config, providers, states, tickets, accounts, sessions, clock } = deps;

  /**
   * A new session for the user. A link answers a new session like any sign-in; the one that
   * started it is ended so a user never holds two live tokens for one browser (and a leaked old
   * token dies here). The web client reads the stored token per request, so it moves to the new
   * one at once.
   */
  async function openSession(userId: string, linkSessionId: string | null): Promise<string> {
    const token = await sessions.create(userId);
    // The browser swaps in the new token when this answer reaches it; calls it sent meanwhile
    // with the old one must not sign the person out, so the old session ends a little later.
    if (linkSessionId) await sessions.end({ sessionId: linkSessionId, userId }, { graceMs: LINK_GRACE_MS });
    return token;
  }

  function providerFor(provider: MailProvider): OAuthProvider {
    const p = providers[provider];
    if (!p) {
      throw new DomainError("service_unavailable", `${providerName(provider)} sign-in is not configured.`);
    }
    return p;
  }

  function redirectUriFor(provider: MailProvider, mode: CallbackMode): string {
    return mode === "redirect"
      ? `${config.publicUrl}/api/auth/${provider}/callback`
      : `${config.publicUrl}/auth/callback`;
  }

  return {
    /** The provider's authorization URL for a new flow bound to the browser's flow id. */
    async start(input: {
      provider: MailProvider;
      mode: CallbackMode;
      flowId: string;
      /** The signed-in session connecting another account, or null for a plain sign-in. */
      link: { userId: string; sessionId: string } | null;
    }): Promise<string> {
      const p = providerFor(input.provider);
      const redirectUri = redirectUriFor(input.provider, input.mode);
      const { state, codeVerifier, nonce } = await states.create({
        provider: input.provider,
        flowId: input.flowId,
        redirectUri,
        link: input.link,
      });
      const url = await authorizationUrl(p, { redirectUri, scope: p.scope, state, nonce, codeVerifier });
      for (const [name, value] of Object.entries(p.extraAuthorizeParams)) url.searchParams.set(name, value);
      return url.href;
    },

    /**
     * Finishes a flow: redeems the state, exchanges the code once (codes are single-use at the
     * provider, so a failed exchange is never retried), reads the identity, records the account
     * and opens a session for its user.
     */
    async complete(input: {
      provider: MailProvider;
      query: Record<string, string>;
      flowId: string | undefined;
      /** What the caller can carry back to the browser: a fetch answer, or a redirect URL. */
      deliver: "session" | "handoff";
    }): Promise<SignInResult> {
      const p = providerFor(input.provider);
      const pending = await states.consume({
        provider: input.provider,
        state: input.query.state,
        flowId: input.flowId,
      });
      if (input.query.error) {
        const cancelled = input.query.error === "access_denied";
        throw failure(cancelled ? SIGN_IN_MESSAGES.cancelled : SIGN_IN_MESSAGES.failed);
      }
      if (!input.query.code) throw failure(SIGN_IN_MESSAGES.noCode);

      let exchanged: ExchangedCode;
      try {
        exchanged = await exchangeCode(p, config.providers.graph, input.query, pending);
      } catch (err) {
        const cause = toProviderError(err, `${input.provider} sign-in`);
        if (cause.kind === "transient" || cause.kind === "rate_limit") {
          const error = new DomainError(
            "provider_unavailable",
            `${providerName(input.provider)} is not responding right now. Please try again.`,
          );
          error.cause = cause;
          throw error;
        }
        throw failure(SIGN_IN_MESSAGES.failed, cause);
      }

      const { tokenResponse, identity } = exchanged;
      const outcome = await accounts.attach({
        provider: input.provider,
        identity,
        tokens: tokensFrom(tokenResponse, clock.nowMs()),
        linkUserId: pending.linkUserId,
      });
      if (deps.onAccountConnected) {
        // Sign-in must not fail because the job queue hiccuped: the sync poller catches up.
        await deps
          .onAccountConnected({ userId: outcome.userId, accountId: outcome.accountId })
          .catch(() => undefined);
      }
      const linkSessionId = pending.linkUserId ? pending.linkSessionId : null;
      const grant: SignInResult["grant"] =
        input.deliver === "session"
          ? { kind: "session", sessionToken: await openSession(outcome.userId, linkSessionId) }
          : {
              kind: "handoff",
              // consume() above proved flowId is this browser's, so the handoff binds to it too.
              handoff: await tickets.mint({
                purpose: "session_handoff",
                userId: outcome.userId,
                sessionId: linkSessionId,
                flowId: input.flowId ?? "",
                ttlSeconds: HANDOFF_TTL_SECONDS,
              }),
            };
      const name = providerName(input.provider);
      return {
        grant,
        userId: outcome.userId,
        linked: pending.linkUserId !== null,
        message: pending.linkUserId
          ? `Connected ${name} account ${identity.email}`
          : `Signed in with ${name}`,
      };
    },

    /**
     * Trades the server redirect's handoff for a session, in the browser the sign-in ran in
     * (its flow cookie), once. Anything else (a session token from someone else's link, a
     * handoff opened in another browser, late or a second time) is refused and signs no one in.
     */
    async claim(input: { handoff: string | undefined; flowId: string | undefined }): Promise<string> {
      const ticket = await tickets.redeem({
        purpose: "session_handoff",
        ticket: input.handoff,
        flowId: input.flowId,
      });
      return openSession(ticket.userId, ticket.sessionId);
    },
  };
}

export type SignInService = ReturnType<typeof createSignInService>;
