import { and, eq, sql } from "drizzle-orm";
import * as oauth from "oauth4webapi";
import type { MailProvider } from "../../contract/auth.ts";
import type { Db } from "../db/client.ts";
import { mailAccounts } from "../db/schema.ts";
import { DomainError } from "../http/errors.ts";
import type { Clock } from "../lib/clock.ts";
import { domainErrorFor, ProviderError, toProviderError } from "./errors.ts";
import { type OAuthProviders, requestOptions } from "./oauth-clients.ts";
import { type ProviderTokens, tokensFrom } from "./provider-tokens.ts";
import type { TokenVault } from "./token-vault.ts";

/** Refresh this long before the provider's expiry, so a token never dies mid-request. */
export const REFRESH_MARGIN_MS = 5 * 60_000;

/**
 * How refreshes of one account are kept from overlapping.
 * - `database`: a row lock on the account (SELECT ... FOR UPDATE in a transaction) held across the
 *   refresh, so web and worker processes sharing a PostgreSQL server take turns.
 * - `process`: only the in-process queue. Right for the embedded PGlite database, which one
 *   process owns (its folder is pid-locked), so no other process can be refreshing.
 */
export type TokenRefreshLock = "database" | "process";

/**
 * How long a handed-out token is reused without reading the account again: bounds how late this
 * process notices an account marked for re-authorisation or disconnected by another process.
 */
const RECENT_TOKEN_TTL_MS = 60_000;

/** How long a refresh waits for another process's refresh of the same account before giving up. */
const LOCK_WAIT = "30s";
const LOCK_NOT_AVAILABLE = "55P03";

/** The columns of a row that holds one grant's tokens (a mail account, a calendar integration). */
export interface TokenRow {
  id: string;
  /** Which OAuth client refreshes the grant. */
  provider: MailProvider;
  status: string;
  accessTokenCiphertext: string;
  accessTokenExpiresAt: Date | null;
  refreshTokenCiphertext: string | null;
}

export interface TokenUpdate {
  accessTokenCiphertext: string;
  accessTokenExpiresAt: Date | null;
  refreshTokenCiphertext?: string;
  scope?: string;
  updatedAt: Date;
}

/** Where a kind of grant row lives: every call names the owning user. */
export interface TokenRows {
  read(q: Db, userId: string, id: string, forUpdate: boolean): Promise<TokenRow | undefined>;
  store(q: Db, userId: string, id: string, update: TokenUpdate): Promise<unknown>;
  markReauthRequired(q: Db, userId: string, id: string, at: Date): Promise<unknown>;
}

/** Mail accounts' tokens (the default rows). */
export const mailAccountTokenRows: TokenRows = {
  async read(q, userId, accountId, forUpdate) {
    const query = q
      .select()
      .from(mailAccounts)
      .where(and(eq(mailAccounts.id, accountId), eq(mailAccounts.userId, userId)));
    const [account] = forUpdate ? await query.for("update") : await query;
    return account ? { ...account, provider: account.provider as MailProvider } : undefined;
  },
  store(q, userId, accountId, update) {
    return q
      .update(mailAccounts)
      .set(update)
      .where(and(eq(mailAccounts.id, accountId), eq(mailAccounts.userId, userId)));
  },
  markReauthRequired(q, userId, accountId, at) {
    return q
      .update(mailAccounts)
      .set({ status: "reauth_required", updatedAt: at })
      .where(and(eq(mailAccounts.id, accountId), eq(mailAccounts.userId, userId)));
  },
};

type AccountRow = TokenRow;

type RefreshOutcome =
  | { accessToken: string; expiresAt: Date | null }
  | { failure: ProviderError; provider: MailProvider };

function hasPgCode(err: unknown, code: string): boolean {
  for (let e: unknown = err; typeof e === "object" && e !== null; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === code) return true;
  }
  return false;
}

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
  options: { lock?: TokenRefreshLock; rows?: TokenRows } = {},
) {
  const lock = options.lock ?? "database";
  const rows = options.rows ?? mailAccountTokenRows;
  // One refresh per account at a time in this process: with rotation, two parallel refreshes
  // would race to store different refresh tokens. It also keeps one process from opening a
  // transaction (and holding a pooled connection) per caller while another refresh is under way.
  const inFlight = new Map<string, { run: Promise<string>; force: boolean }>();
  // Fresh tokens handed out recently, so a sync's every provider request does not read and
  // decrypt the account row (on PGlite that read queued behind the page being stored, and the
  // next page's fetch waited for it). Another process refreshing does not make ours invalid: an
  // access token lives until its own expiry. A provider 401 forces a refresh, which skips this.
  const recent = new Map<string, { token: string; expiresAtMs: number | undefined; at: number }>();

  async function readAccount(
    q: Db,
    userId: string,
    accountId: string,
    forUpdate: boolean,
  ): Promise<AccountRow> {
    const account = await rows.read(q, userId, accountId, forUpdate);
    if (!account) throw new DomainError("not_found", "No such account.");
    if (account.status === "reauth_required")
      throw domainErrorFor(new ProviderError("reauth", "reauth"), account.provider);
    return account;
  }

  function isFresh(account: AccountRow): boolean {
    const expiresAt = account.accessTokenExpiresAt?.getTime();
    return expiresAt === undefined || expiresAt - clock.nowMs() > REFRESH_MARGIN_MS;
  }

  /**
   * Runs `work` while no other refresh of this account can run. In `database` mode that is a
   * transaction holding the account row FOR UPDATE; `work` must use the executor it is given,
   * never `db`: on PostgreSQL an update through another pooled connection would wait for our own
   * row lock, and on PGlite any query outside the transaction waits for it to end. Both are
   * deadlocks nothing would detect.
   *
   * The lock is held across the provider's HTTP call (bounded by the 10 s provider timeout):
   * that is the point, the second process must not read the refresh token until the first has
   * stored its replacement. On PGlite that transaction would hold the only connection and stall
   * every other query of the app for the round trip, which is why the composition root chooses
   * `process` there.
   */
  async function withAccountLock<T>(work: (q: Db) => Promise<T>): Promise<T> {
    if (lock === "process") return work(db);
    return db.transaction(async (tx) => {
      await tx.execute(sql.raw(`set local lock_timeout = '${LOCK_WAIT}'`));
      return work(tx);
    });
  }

  function store(q: Db, userId: string, accountId: string, tokens: ProviderTokens) {
    return rows.store(q, userId, accountId, {
      accessTokenCiphertext: vault.encrypt(tokens.accessToken, "provider-access-token"),
      accessTokenExpiresAt: tokens.expiresAt,
      ...(tokens.refreshToken
        ? { refreshTokenCiphertext: vault.encrypt(tokens.refreshToken, "provider-refresh-token") }
        : {}),
      ...(tokens.scope ? { scope: tokens.scope } : {}),
      updatedAt: clock.now(),
    });
  }

  function markReauthRequired(q: Db, userId: string, accountId: string) {
    return rows.markReauthRequired(q, userId, accountId, clock.now());
  }

  /**
   * Under the lock: re-read the row, and refresh only if nobody else has meanwhile. `seen` is the
   * access token ciphertext the caller found before waiting; for a forced refresh, a different one
   * now means another process refreshed after the provider's 401, so its token is used instead.
   */
  async function refreshLocked(
    q: Db,
    userId: string,
    accountId: string,
    force: boolean,
    seen: string,
  ): Promise<RefreshOutcome> {
    const account = await readAccount(q, userId, accountId, true);
    const provider = account.provider;
    const refreshedElsewhere = account.accessTokenCiphertext !== seen;
    if (isFresh(account) && (!force || refreshedElsewhere)) {
      return {
        accessToken: vault.decrypt(account.accessTokenCiphertext, "provider-access-token"),
        expiresAt: account.accessTokenExpiresAt,
      };
    }

    const p = providers[provider];
    if (!p) throw new DomainError("service_unavailable", `Sign-in with ${provider} is not configured.`);
    if (!account.refreshTokenCiphertext) {
      await markReauthRequired(q, userId, accountId);
      return { failure: new ProviderError("reauth", "no refresh token"), provider };
    }
    const refreshToken = vault.decrypt(account.refreshTokenCiphertext, "provider-refresh-token");
    let tokens: ProviderTokens;
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
      // Returned, not thrown, so the transaction commits the mark.
      if (failure.kind === "reauth") await markReauthRequired(q, userId, accountId);
      return { failure, provider };
    }
    await store(q, userId, accountId, tokens);
    return { accessToken: tokens.accessToken, expiresAt: tokens.expiresAt ?? null };
  }

  function remember(key: string, token: string, expiresAt: Date | null): string {
    if (recent.size > 10_000) recent.clear();
    recent.set(key, { token, expiresAtMs: expiresAt?.getTime(), at: clock.nowMs() });
    return token;
  }

  function recalled(key: string): string | undefined {
    const hit = recent.get(key);
    if (!hit) return undefined;
    const now = clock.nowMs();
    const fresh = hit.expiresAtMs === undefined || hit.expiresAtMs - now > REFRESH_MARGIN_MS;
    if (fresh && now - hit.at < RECENT_TOKEN_TTL_MS) return hit.token;
    recent.delete(key);
    return undefined;
  }

  async function refresh(userId: string, accountId: string, force: boolean): Promise<string> {
    const key = `${userId}:${accountId}`;
    // Most calls end here, without a transaction: the stored token is fresh.
    const account = await readAccount(db, userId, accountId, false);
    // A provider 401 means the token died before its stated expiry (revoked, clock skew): force a refresh.
    if (!force && isFresh(account))
      return remember(
        key,
        vault.decrypt(account.accessTokenCiphertext, "provider-access-token"),
        account.accessTokenExpiresAt,
      );

    let outcome: RefreshOutcome;
    try {
      outcome = await withAccountLock((q) =>
        refreshLocked(q, userId, accountId, force, account.accessTokenCiphertext),
      );
    } catch (err) {
      if (!hasPgCode(err, LOCK_NOT_AVAILABLE)) throw err;
      // Another process held the account for longer than any refresh should take.
      const failure = new ProviderError("transient", "token refresh lock wait timed out", undefined, {
        cause: err,
      });
      throw domainErrorFor(failure, account.provider);
    }
    if ("failure" in outcome) throw domainErrorFor(outcome.failure, outcome.provider);
    return remember(key, outcome.accessToken, outcome.expiresAt);
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
      if (force) recent.delete(key);
      else {
        const token = recalled(key);
        if (token !== undefined) return Promise.resolve(token);
      }
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
