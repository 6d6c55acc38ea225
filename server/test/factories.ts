import { randomUUID } from "node:crypto";
import { createSessionService } from "../auth/sessions.ts";
import type { Db } from "../db/client.ts";
import { emails, mailAccounts, users } from "../db/schema.ts";
import { createClock } from "../lib/clock.ts";
import { testVault } from "./auth-db.ts";

/**
 * Factories that build real rows (house style 8). Defaults are plausible and unique; tests pass
 * only the fields their story is about.
 */

export type UserRow = typeof users.$inferSelect;
export type AccountRow = typeof mailAccounts.$inferSelect;
export type EmailRow = typeof emails.$inferSelect;
export type EmailInsert = typeof emails.$inferInsert;

let sequence = 0;
const next = () => ++sequence;

export async function createUser(
  db: Db,
  overrides: Partial<typeof users.$inferInsert> = {},
): Promise<UserRow> {
  const n = next();
  const [row] = await db
    .insert(users)
    .values({
      email: `user${n}-${randomUUID().slice(0, 8)}@example.com`,
      displayName: `User ${n}`,
      ...overrides,
    })
    .returning();
  if (!row) throw new Error("user insert returned nothing");
  return row;
}

/** A connected account with vault-encrypted (fake) tokens; it cannot reach a provider. */
export async function createAccount(
  db: Db,
  userId: string,
  overrides: Partial<typeof mailAccounts.$inferInsert> = {},
): Promise<AccountRow> {
  const n = next();
  const provider = overrides.provider ?? "gmail";
  const vault = testVault();
  const [row] = await db
    .insert(mailAccounts)
    .values({
      userId,
      provider,
      providerAccountId: `factory-${randomUUID()}`,
      email: `account${n}@${provider === "gmail" ? "gmail.com" : "outlook.com"}`,
      displayName: `Account ${n}`,
      accessTokenCiphertext: vault.encrypt("factory-access-token", "provider-access-token"),
      accessTokenExpiresAt: new Date(Date.now() + 3_600_000),
      ...overrides,
    })
    .returning();
  if (!row) throw new Error("account insert returned nothing");
  return row;
}

function emailValues(
  account: Pick<AccountRow, "id" | "userId">,
  overrides: Partial<EmailInsert>,
): EmailInsert {
  const n = next();
  return {
    userId: account.userId,
    accountId: account.id,
    providerId: `factory-msg-${n}-${randomUUID().slice(0, 8)}`,
    threadId: `thread-${n}`,
    internetMessageId: `<factory-${n}@example.com>`,
    fromName: "Pat Sender",
    fromAddress: "pat.sender@example.org",
    toRecipients: [{ name: "Me", address: "me@example.com" }],
    subject: `Subject ${n}`,
    snippet: `Snippet ${n}`,
    bodyText: `Body ${n}`,
    bodyHtml: `<p>Body ${n}</p>`,
    receivedAt: new Date(Date.now() - n * 1000),
    bucket: "personal",
    ...overrides,
  };
}

export async function createEmail(
  db: Db,
  account: Pick<AccountRow, "id" | "userId">,
  overrides: Partial<EmailInsert> = {},
): Promise<EmailRow> {
  const [row] = await db.insert(emails).values(emailValues(account, overrides)).returning();
  if (!row) throw new Error("email insert returned nothing");
  return row;
}

/**
 * Stores a message the provider holds as our row, with `overrides` winning. Where a sync started
 * by the sign-in or the delivery's push has stored it first, that row is taken over instead of
 * failing on (account, provider id).
 */
export async function storeProviderEmail(
  db: Db,
  account: Pick<AccountRow, "id" | "userId">,
  overrides: Partial<EmailInsert> & Pick<EmailInsert, "providerId">,
): Promise<EmailRow> {
  const values = emailValues(account, overrides);
  const { id: _id, userId: _userId, accountId: _accountId, providerId: _providerId, ...rest } = values;
  const [row] = await db
    .insert(emails)
    .values(values)
    .onConflictDoUpdate({ target: [emails.accountId, emails.providerId], set: rest })
    .returning();
  if (!row) throw new Error("email upsert returned nothing");
  return row;
}

/** Many emails in few statements; `each(i)` customises the i-th (0-based). */
export async function createEmails(
  db: Db,
  account: Pick<AccountRow, "id" | "userId">,
  count: number,
  each: (i: number) => Partial<EmailInsert> = () => ({}),
): Promise<EmailRow[]> {
  const out: EmailRow[] = [];
  for (let start = 0; start < count; start += 1000) {
    const values = Array.from({ length: Math.min(1000, count - start) }, (_, k) =>
      emailValues(account, each(start + k)),
    );
    out.push(...(await db.insert(emails).values(values).returning()));
  }
  return out;
}

/** A live session token for the user, as sign-in would hand out. */
export async function sessionFor(db: Db, userId: string): Promise<string> {
  return createSessionService(db, createClock()).create(userId);
}

/** A user with one account and a session: the usual start of an API test. */
export async function signedInUser(db: Db, accountOverrides: Partial<typeof mailAccounts.$inferInsert> = {}) {
  const user = await createUser(db);
  const account = await createAccount(db, user.id, accountOverrides);
  return { user, account, token: await sessionFor(db, user.id) };
}
