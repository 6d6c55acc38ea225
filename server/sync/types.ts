import type { MailProvider } from "../../contract/auth.ts";
import type { MailProviderClient } from "../providers/mail-provider.ts";

/** The account fields sync needs; never its tokens (the provider client asks the token service). */
export interface SyncAccount {
  id: string;
  userId: string;
  provider: MailProvider;
  email: string;
  displayName: string;
}

/** Builds the provider client of one account (the adapters' factory in production, fakes in tests). */
export type ProviderClientFactory = (account: SyncAccount) => MailProviderClient;

/** Why a sync was asked for; only for logs and the job name (push syncs run on their own queue). */
/**
 * Why a sync was asked for; "action": after the user's change was written back to the provider;
 * "takeover": the account's lease expired while its holder still had work (the holder died).
 */
export type SyncReason = "connected" | "poll" | "push" | "manual" | "retry" | "action" | "takeover";

export interface SyncLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export const silentLogger: SyncLogger = { info() {}, warn() {}, error() {} };
