import type { EmulatorContext } from "./context.ts";
import type { Identity, IdentityInput, Provider } from "./identities.ts";
import { googlePolicy } from "./oauth/google.ts";
import { microsoftPolicy } from "./oauth/microsoft.ts";
import type { TokenCounts } from "./oauth/tokens.ts";

export interface EmulatorStateSummary extends TokenCounts {
  now: string;
  clockOffsetSeconds: number;
  identities: { google: number; microsoft: number };
}

/**
 * Test controls for one emulator instance. The admin HTTP API is a thin layer over this, and
 * in-process tests can call it directly through `emulatorControl(app)`.
 */
export interface EmulatorControl {
  addIdentity(input: IdentityInput): Identity;
  listIdentities(provider?: Provider): Identity[];
  /** Expires one access token, or every access token of the identities with that email. */
  expireAccessTokens(target: { accessToken?: string | undefined; email?: string | undefined }): number;
  /** Revokes every grant (refresh and access tokens) of that identity; returns how many grants. */
  revokeIdentityTokens(email: string, provider: Provider): number;
  /** Moves the clock forward; returns the new emulator time (epoch ms). */
  advanceClock(seconds: number): number;
  state(): EmulatorStateSummary;
  /** Forgets codes, tokens, added identities and clock offset; keys and clients stay. */
  reset(): void;
}

const refreshIdle = (provider: Provider) =>
  provider === "google" ? googlePolicy.refreshTokenIdleSeconds : microsoftPolicy.refreshTokenIdleSeconds;

export function createEmulatorControl(context: EmulatorContext): EmulatorControl {
  return {
    addIdentity: (input) => context.identities.add(input),
    listIdentities: (provider) => context.identities.list(provider),
    expireAccessTokens(target) {
      let expired = 0;
      if (target.accessToken !== undefined && context.tokens.expireAccessToken(target.accessToken))
        expired += 1;
      if (target.email !== undefined) {
        for (const identity of context.identities.findByEmail(target.email)) {
          expired += context.tokens.expireAccessTokensOf(identity.provider, identity.id);
        }
      }
      return expired;
    },
    revokeIdentityTokens(email, provider) {
      let revoked = 0;
      for (const identity of context.identities.findByEmail(email, provider)) {
        revoked += context.tokens.revokeGrants({ provider, identityId: identity.id });
      }
      return revoked;
    },
    advanceClock(seconds) {
      context.clock.advance(seconds);
      return context.clock.now();
    },
    state() {
      return {
        now: new Date(context.clock.now()).toISOString(),
        clockOffsetSeconds: context.clock.offsetSeconds(),
        identities: {
          google: context.identities.list("google").length,
          microsoft: context.identities.list("microsoft").length,
        },
        ...context.tokens.counts(refreshIdle),
      };
    },
    reset() {
      context.tokens.reset();
      context.identities.reset();
      context.clock.reset();
    },
  };
}
