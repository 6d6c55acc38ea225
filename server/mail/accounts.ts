import { asc, eq } from "drizzle-orm";
import type { MailProvider } from "../../contract/auth.ts";
import type { Db } from "../db/client.ts";
import { mailAccounts } from "../db/schema.ts";
import type { AccountRow } from "./deps.ts";
import type { AccountInfo } from "./presenters.ts";

/** What mail services read of an account: never its tokens (encrypted, and costly to read). */
export type AccountSummary = Pick<
  AccountRow,
  "id" | "userId" | "provider" | "email" | "displayName" | "status"
>;

/** The columns of an AccountSummary, for selects that add their own (stats adds sync's estimate). */
export const accountSummaryColumns = {
  id: mailAccounts.id,
  userId: mailAccounts.userId,
  provider: mailAccounts.provider,
  email: mailAccounts.email,
  displayName: mailAccounts.displayName,
  status: mailAccounts.status,
};

/** The user's connected accounts, oldest first (the "first account" is the default sender). */
export async function accountsOf(db: Db, userId: string): Promise<AccountSummary[]> {
  return db
    .select(accountSummaryColumns)
    .from(mailAccounts)
    .where(eq(mailAccounts.userId, userId))
    .orderBy(asc(mailAccounts.connectedAt), asc(mailAccounts.id));
}

/** Account id -> what presenters show of it. A user has a handful, so one small query per request. */
export async function accountDirectory(db: Db, userId: string): Promise<Map<string, AccountInfo>> {
  const rows = await db
    .select({ id: mailAccounts.id, email: mailAccounts.email, provider: mailAccounts.provider })
    .from(mailAccounts)
    .where(eq(mailAccounts.userId, userId));
  return new Map(rows.map((r) => [r.id, { email: r.email, provider: r.provider as MailProvider }]));
}

/** For presenting a row whose account vanished mid-request (disconnect cascades soon after). */
export const UNKNOWN_ACCOUNT: AccountInfo = { email: "", provider: "gmail" };

/** The sync/provider view of an account row: never its tokens. */
export function syncAccountOf(row: AccountSummary) {
  return {
    id: row.id,
    userId: row.userId,
    provider: row.provider as MailProvider,
    email: row.email,
    displayName: row.displayName,
  };
}
