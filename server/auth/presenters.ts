import type { MailAccount, MailProvider, SessionUser } from "../../contract/auth.ts";
import type { AccountRow, UserRow } from "./accounts.ts";

/**
 * The only way account and user rows leave the server. Fields are listed one by one so a new
 * column (a token, a hash) can never reach a response by accident.
 */
export function presentAccount(row: AccountRow): MailAccount {
  return {
    id: row.id,
    provider: row.provider as MailProvider,
    email: row.email,
    displayName: row.displayName,
    status: row.status === "reauth_required" ? "reauth_required" : "active",
    connectedAt: row.connectedAt.toISOString(),
  };
}

export function presentSessionUser(user: UserRow, accounts: readonly AccountRow[]): SessionUser {
  const plan = user.plan;
  return {
    id: user.id,
    email: user.email,
    displayName: user.displayName,
    plan: plan === "personal" || plan === "professional" || plan === "enterprise" ? plan : "trial",
    trialEndsAt: user.trialEndsAt.toISOString(),
    createdAt: user.createdAt.toISOString(),
    accounts: accounts.map(presentAccount),
  };
}
