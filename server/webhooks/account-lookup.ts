import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { mailAccounts } from "../db/schema.ts";

/** The Gmail accounts with this address (a mailbox belongs to one user, but be tolerant). */
export async function gmailAccountsByEmail(db: Db, email: string): Promise<string[]> {
  const rows = await db
    .select({ id: mailAccounts.id })
    .from(mailAccounts)
    .where(and(eq(mailAccounts.provider, "gmail"), sql`lower(${mailAccounts.email}) = lower(${email})`));
  return rows.map((r) => r.id);
}
