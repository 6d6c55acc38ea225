import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { mailAccounts, syncStates } from "../db/schema.ts";

/** The Gmail accounts with this address (a mailbox belongs to one user, but be tolerant). */
export async function gmailAccountsByEmail(db: Db, email: string): Promise<string[]> {
  const rows = await db
    .select({ id: mailAccounts.id })
    .from(mailAccounts)
    .where(and(eq(mailAccounts.provider, "gmail"), sql`lower(${mailAccounts.email}) = lower(${email})`));
  return rows.map((r) => r.id);
}

/**
 * The Outlook account a Graph notification is for and the clientState hash it must match: by
 * subscription id, or (for a notification racing our store of a new subscription id) by the
 * clientState hash itself.
 */
export async function graphSubscriptionOwner(
  db: Db,
  subscriptionId: string,
  clientStateHash: string,
): Promise<{ accountId: string; clientStateHash: string | null } | undefined> {
  const bySubscription = await db
    .select({ accountId: syncStates.accountId, clientStateHash: syncStates.pushClientStateHash })
    .from(syncStates)
    .where(eq(syncStates.pushSubscriptionId, subscriptionId))
    .limit(1);
  if (bySubscription[0]) return bySubscription[0];
  const byState = await db
    .select({ accountId: syncStates.accountId, clientStateHash: syncStates.pushClientStateHash })
    .from(syncStates)
    .where(eq(syncStates.pushClientStateHash, clientStateHash))
    .limit(1);
  return byState[0];
}
