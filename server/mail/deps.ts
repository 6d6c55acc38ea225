import type { SyncStatus } from "../../contract/mail.ts";
import type { Db } from "../db/client.ts";
import type { mailAccounts } from "../db/schema.ts";
import type { EventBus } from "../events.ts";
import type { Clock } from "../lib/clock.ts";
import type { ProviderClientFactory } from "../sync/types.ts";

export type { EmailRow } from "../db/email-columns.ts";
export type AccountRow = typeof mailAccounts.$inferSelect;

/** What the mail API needs of the sync engine (server/sync implements it). */
export interface MailSync {
  /** Queues a sync of one account; repeated requests collapse into one job. */
  requestSync(accountId: string, reason: "manual" | "action"): Promise<unknown>;
  /** Per-account progress for the signed-in user. */
  syncStatus(userId: string): Promise<SyncStatus[]>;
}

/** Everything the mail services are built from; the composition root supplies it. */
export interface MailDeps {
  db: Db;
  clock: Clock;
  events: EventBus;
  /** A provider client acting for one account (the adapters in production, the emulator in tests). */
  providerClient: ProviderClientFactory;
  sync: MailSync;
  /** host:port pairs the unsubscribe one-click POST may reach despite the SSRF guard (tests only). */
  unsubscribeAllowHosts: readonly string[];
  /** PROVIDER_WRITE_TIMEOUT_MS (default 5 s): past it a write-back is pending, then settled. */
  writeTimeoutMs?: number;
  /** Waits before each settle of a timed-out write-back (write-settler.ts); tests shorten them. */
  settleDelaysMs?: readonly number[];
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** HMAC key of the signed attachment links (decision 0060); random per process when absent. */
  attachmentLinkKey?: Buffer;
  /** ATTACHMENT_OPEN_TIMEOUT_MS: the wait for a provider to start sending an attachment. */
  attachmentOpenTimeoutMs?: number;
  /** Where compose uploads wait on disk (issue 36); DATA_DIR/uploads in the app. */
  uploadsDir?: string;
}
