import { and, eq, isNull, lt } from "drizzle-orm";
import * as oauth from "oauth4webapi";
import type { MailProvider } from "../../contract/auth.ts";
import type { Db } from "../db/client.ts";
import { oauthStates } from "../db/schema.ts";
import { DomainError } from "../http/errors.ts";
import type { Clock } from "../lib/clock.ts";
import { hashSecret, RANDOM_TOKEN_PATTERN, randomToken } from "./random.ts";
import type { TokenVault } from "./token-vault.ts";

/** A sign-in must finish within this long after the authorization URL was issued. */
export const STATE_TTL_SECONDS = 10 * 60;

export const STATE_MESSAGES = {
  invalid: "This sign-in link is not valid. Please start signing in again.",
  expired: "This sign-in attempt expired. Please start signing in again.",
  reused: "This sign-in link was already used. Please start signing in again.",
  otherBrowser: "Please finish signing in in the same browser where you started.",
} as const;

export interface NewSignIn {
  state: string;
  codeVerifier: string;
  nonce: string;
}

/** What the callback needs to finish the flow the state stood for. */
export interface PendingSignIn {
  provider: MailProvider;
  codeVerifier: string;
  nonce: string;
  redirectUri: string;
  linkUserId: string | null;
  /** The session that started a link, ended once the link has issued its own. */
  linkSessionId: string | null;
  /** Which flow the state was made for; each callback accepts only its own. */
  purpose: OAuthPurpose;
  /** For calendar flows: the account whose calendar is being connected. */
  calendarAccountId: string | null;
}

export type OAuthPurpose = "sign_in" | "calendar";

/**
 * Issues and redeems OAuth `state` values. The state is the provider name plus 256 random bits
 * (the web client tells providers apart by it), stored only as a hash, single-use, ten minutes
 * long, and bound to the browser that started the flow by a hashed cookie value, so a state
 * lifted from a URL cannot be finished elsewhere (login CSRF).
 */
export function createStateStore(db: Db, clock: Clock, vault: TokenVault) {
  return {
    async create(input: {
      provider: MailProvider;
      flowId: string;
      redirectUri: string;
      link: { userId: string; sessionId: string } | null;
      /** Defaults to sign_in. */
      purpose?: OAuthPurpose;
      calendarAccountId?: string;
    }): Promise<NewSignIn> {
      const now = clock.now();
      // Housekeeping rides along with sign-ins instead of needing a job: drop states long past use.
      await db.delete(oauthStates).where(lt(oauthStates.expiresAt, new Date(now.getTime() - 86_400_000)));
      const state = `${input.provider}.${randomToken()}`;
      const codeVerifier = oauth.generateRandomCodeVerifier();
      const nonce = oauth.generateRandomNonce();
      await db.insert(oauthStates).values({
        stateHash: hashSecret(state),
        flowHash: hashSecret(input.flowId),
        provider: input.provider,
        codeVerifierCiphertext: vault.encrypt(codeVerifier, "pkce-verifier"),
        nonce,
        redirectUri: input.redirectUri,
        linkUserId: input.link?.userId ?? null,
        linkSessionId: input.link?.sessionId ?? null,
        purpose: input.purpose ?? "sign_in",
        calendarAccountId: input.calendarAccountId ?? null,
        createdAt: now,
        expiresAt: new Date(now.getTime() + STATE_TTL_SECONDS * 1000),
      });
      return { state, codeVerifier, nonce };
    },

    /**
     * Redeems a state exactly once. The browser binding is checked before the state is spent, so
     * a stranger replaying someone's state cannot burn it; the spend itself is one conditional
     * UPDATE, so two racing callbacks cannot both win.
     */
    async consume(input: {
      provider: MailProvider;
      state: string | undefined;
      flowId: string | undefined;
      /** Defaults to sign_in: a calendar state cannot finish a sign-in, nor the reverse. */
      purpose?: OAuthPurpose;
    }): Promise<PendingSignIn> {
      const { state, flowId } = input;
      const [prefix, random] = state?.split(".") ?? [];
      if (!state || prefix !== input.provider || !random || !RANDOM_TOKEN_PATTERN.test(random)) {
        throw new DomainError("bad_request", STATE_MESSAGES.invalid);
      }
      const stateHash = hashSecret(state);
      const [row] = await db.select().from(oauthStates).where(eq(oauthStates.stateHash, stateHash));
      if (!row || row.provider !== input.provider || row.purpose !== (input.purpose ?? "sign_in"))
        throw new DomainError("bad_request", STATE_MESSAGES.invalid);
      if (row.consumedAt) throw new DomainError("bad_request", STATE_MESSAGES.reused);
      const now = clock.now();
      if (row.expiresAt.getTime() <= now.getTime())
        throw new DomainError("bad_request", STATE_MESSAGES.expired);
      if (!flowId || hashSecret(flowId) !== row.flowHash) {
        throw new DomainError("bad_request", STATE_MESSAGES.otherBrowser);
      }
      const spent = await db
        .update(oauthStates)
        .set({ consumedAt: now })
        .where(and(eq(oauthStates.id, row.id), isNull(oauthStates.consumedAt)))
        .returning({ id: oauthStates.id });
      if (spent.length === 0) throw new DomainError("bad_request", STATE_MESSAGES.reused);
      return {
        provider: input.provider,
        codeVerifier: vault.decrypt(row.codeVerifierCiphertext, "pkce-verifier"),
        nonce: row.nonce,
        redirectUri: row.redirectUri,
        linkUserId: row.linkUserId,
        linkSessionId: row.linkSessionId,
        purpose: row.purpose === "calendar" ? "calendar" : "sign_in",
        calendarAccountId: row.calendarAccountId,
      };
    },
  };
}

export type StateStore = ReturnType<typeof createStateStore>;
