import { and, asc, eq } from "drizzle-orm";
import type { MailProvider } from "../../contract/auth.ts";
import type { Db } from "../db/client.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { mailAccounts, users } from "../db/schema.ts";
import { DomainError } from "../http/errors.ts";
import type { Clock } from "../lib/clock.ts";
import { providerName } from "./errors.ts";
import type { ProviderIdentity } from "./identity.ts";
import type { ProviderTokens } from "./provider-tokens.ts";
import type { TokenVault } from "./token-vault.ts";

/** The free trial every new user gets, no card needed. */
const TRIAL_DAYS = 14;

export type AccountRow = typeof mailAccounts.$inferSelect;
export type UserRow = typeof users.$inferSelect;

export interface SignInOutcome {
  userId: string;
  accountId: string;
  newUser: boolean;
}

/** Users and their connected mailboxes. Every read and write names the owning user. */
export function createAccountService(db: Db, clock: Clock, vault: TokenVault) {
  async function attachOnce(input: {
    provider: MailProvider;
    identity: ProviderIdentity;
    tokens: ProviderTokens;
    linkUserId: string | null;
  }): Promise<SignInOutcome> {
    const { provider, identity, tokens, linkUserId } = input;
    const now = clock.now();
    const secretColumns = {
      accessTokenCiphertext: vault.encrypt(tokens.accessToken, "provider-access-token"),
      accessTokenExpiresAt: tokens.expiresAt,
      scope: tokens.scope ?? null,
      ...(tokens.refreshToken
        ? { refreshTokenCiphertext: vault.encrypt(tokens.refreshToken, "provider-refresh-token") }
        : {}),
    };
    return db.transaction(async (tx) => {
      const [existing] = await tx
        .select({ id: mailAccounts.id, userId: mailAccounts.userId })
        .from(mailAccounts)
        .where(
          and(
            eq(mailAccounts.provider, provider),
            eq(mailAccounts.providerAccountId, identity.providerAccountId),
          ),
        )
        .for("update");
      if (existing) {
        if (linkUserId && existing.userId !== linkUserId) {
          throw new DomainError(
            "conflict",
            `This ${providerName(provider)} account is already connected to another Mailwise user.`,
          );
        }
        // Signing in again is also how a reauth_required account is repaired.
        await tx
          .update(mailAccounts)
          .set({
            ...secretColumns,
            email: identity.email,
            displayName: identity.displayName,
            status: "active",
            updatedAt: now,
          })
          .where(and(eq(mailAccounts.id, existing.id), eq(mailAccounts.userId, existing.userId)));
        return { userId: existing.userId, accountId: existing.id, newUser: false };
      }

      let userId: string;
      if (linkUserId) {
        const [owner] = await tx
          .select({ id: users.id })
          .from(users)
          .where(eq(users.id, linkUserId))
          .for("update");
        if (!owner)
          throw new DomainError("bad_request", "The Mailwise user to connect this account to is gone.");
        userId = owner.id;
      } else {
        const [created] = await tx
          .insert(users)
          .values({
            email: identity.email,
            displayName: identity.displayName,
            plan: "trial",
            trialEndsAt: new Date(now.getTime() + TRIAL_DAYS * 86_400_000),
            createdAt: now,
          })
          .returning({ id: users.id });
        if (!created) throw new Error("insert into users returned nothing");
        userId = created.id;
      }
      if (!tokens.refreshToken) {
        // Without a refresh token the account would stop syncing within the hour.
        throw new DomainError(
          "bad_request",
          `${providerName(provider)} did not grant offline access. Please try again and allow access.`,
        );
      }
      const [account] = await tx
        .insert(mailAccounts)
        .values({
          ...secretColumns,
          userId,
          provider,
          providerAccountId: identity.providerAccountId,
          email: identity.email,
          displayName: identity.displayName,
          status: "active",
          connectedAt: now,
          updatedAt: now,
        })
        .returning({ id: mailAccounts.id });
      if (!account) throw new Error("insert into mail_accounts returned nothing");
      return { userId, accountId: account.id, newUser: !linkUserId };
    });
  }

  return {
    /**
     * Records a completed sign-in. An account already linked opens its user; a new one creates a
     * user, or joins `linkUserId` when a signed-in user is connecting another mailbox.
     */
    async attach(input: Parameters<typeof attachOnce>[0]): Promise<SignInOutcome> {
      try {
        return await attachOnce(input);
      } catch (err) {
        // Two first sign-ins with the same mailbox raced; the loser now finds the winner's row.
        if (isUniqueViolation(err)) return attachOnce(input);
        throw err;
      }
    },

    async getUser(userId: string): Promise<UserRow | undefined> {
      const [user] = await db.select().from(users).where(eq(users.id, userId));
      return user;
    },

    async list(userId: string): Promise<AccountRow[]> {
      return db
        .select()
        .from(mailAccounts)
        .where(eq(mailAccounts.userId, userId))
        .orderBy(asc(mailAccounts.connectedAt), asc(mailAccounts.id));
    },

    async get(userId: string, accountId: string): Promise<AccountRow | undefined> {
      const [row] = await db
        .select()
        .from(mailAccounts)
        .where(and(eq(mailAccounts.id, accountId), eq(mailAccounts.userId, userId)));
      return row;
    },

    /**
     * Deletes one of the user's accounts (its synced data goes with it by cascade) and returns
     * the deleted row so the caller can revoke its grant. The user row is locked while counting,
     * so two parallel disconnects cannot remove the last two accounts.
     */
    async remove(userId: string, accountId: string): Promise<AccountRow> {
      return db.transaction(async (tx) => {
        await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
        const owned = await tx
          .select()
          .from(mailAccounts)
          .where(eq(mailAccounts.userId, userId))
          .for("update");
        const target = owned.find((a) => a.id === accountId);
        if (!target) throw new DomainError("not_found", "No such account.");
        if (owned.length <= 1) {
          throw new DomainError(
            "conflict",
            "This is your only connected account, so it can't be disconnected. Connect another account first.",
          );
        }
        await tx
          .delete(mailAccounts)
          .where(and(eq(mailAccounts.id, accountId), eq(mailAccounts.userId, userId)));
        return target;
      });
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
