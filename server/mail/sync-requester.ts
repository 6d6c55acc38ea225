import type { SyncStatus } from "../../contract/mail.ts";
import type { Db } from "../db/client.ts";
import { accountsOf } from "./accounts.ts";
import type { MailSync } from "./deps.ts";

/** POST /api/emails/auto-sync and GET /api/emails/sync-status, over the sync engine. */
export function createSyncRequester(deps: { db: Db; sync: MailSync }) {
  return {
    async syncAll(userId: string): Promise<{ queued: number; status: SyncStatus[] }> {
      // Accounts needing a reconnect are skipped: a sync could only fail until the user signs in.
      const accounts = (await accountsOf(deps.db, userId)).filter((a) => a.status === "active");
      for (const account of accounts) await deps.sync.requestSync(account.id, "manual");
      return { queued: accounts.length, status: await deps.sync.syncStatus(userId) };
    },
    status: (userId: string) => deps.sync.syncStatus(userId),
  };
}
