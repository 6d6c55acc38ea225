import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import type { Clock } from "../lib/clock.ts";
import { createAccountTokenService, type TokenRefreshLock } from "./account-tokens.ts";
import { createAccountService } from "./accounts.ts";
import { createDisconnectService, type PushStopper } from "./disconnect.ts";
import { buildOAuthProviders } from "./oauth-clients.ts";
import { createSessionService, type SessionsEnded } from "./sessions.ts";
import { createSignInService } from "./sign-in.ts";
import { createStateStore } from "./state-store.ts";
import { createTicketStore } from "./tickets.ts";
import { createTokenVault, loadSecretKey } from "./token-vault.ts";

/** Wires the auth services once per process; routes and (later) sync jobs take what they need. */
export async function createAuthServices(deps: {
  config: Config;
  db: Db;
  clock: Clock;
  /** Hook for the sync engine: an account was connected by sign-in or linking. */
  onAccountConnected?: (account: { userId: string; accountId: string }) => Promise<void>;
  /** Told after an account was disconnected (its data is gone). */
  onAccountRemoved?: (account: { userId: string; accountId: string }) => void;
  /** Stops an account's push channel before a disconnect removes it. */
  pushStopper?: PushStopper;
  /** In-memory session lookups (ms); coherent across processes only with `announceSessionsEnded`. */
  sessionCacheMs?: number;
  /** Tells every process that sessions ended (PostgreSQL: NOTIFY), so they drop cached lookups. */
  announceSessionsEnded?: (ended: SessionsEnded) => void;
  /** How token refreshes of one account are serialised; `process` only where one process owns the database. */
  tokenRefreshLock?: TokenRefreshLock;
}) {
  const { config, db, clock } = deps;
  const vault = createTokenVault([await loadSecretKey(config)]);
  const providers = buildOAuthProviders(config);
  const sessions = createSessionService(db, clock, {
    cacheMs: deps.sessionCacheMs ?? 0,
    ...(deps.announceSessionsEnded ? { announce: deps.announceSessionsEnded } : {}),
  });
  const accounts = createAccountService(db, clock, vault);
  const states = createStateStore(db, clock, vault);
  const tickets = createTicketStore(db, clock);
  return {
    sessions,
    accounts,
    /** For features with grants of their own (calendar): encryption and the OAuth clients. */
    vault,
    providers,
    states,
    /** Browser-bound single-use tickets (decision 0017), for any navigation that needs one. */
    tickets,
    signIn: createSignInService({
      config,
      providers,
      states,
      tickets,
      accounts,
      sessions,
      clock,
      ...(deps.onAccountConnected ? { onAccountConnected: deps.onAccountConnected } : {}),
    }),
    accountTokens: createAccountTokenService(db, clock, vault, providers, {
      ...(deps.tokenRefreshLock ? { lock: deps.tokenRefreshLock } : {}),
    }),
    disconnect: createDisconnectService(accounts, vault, providers, deps.onAccountRemoved, deps.pushStopper),
  };
}

export type AuthServices = Awaited<ReturnType<typeof createAuthServices>>;
