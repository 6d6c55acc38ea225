import { and, asc, eq, or } from "drizzle-orm";
import type { CalendarIntegration, CalendarProvider } from "../../contract/calendar.ts";
import type { ProviderTokens } from "../auth/provider-tokens.ts";
import type { TokenVault } from "../auth/token-vault.ts";
import type { Db } from "../db/client.ts";
import { calendarIntegrations, mailAccounts } from "../db/schema.ts";
import { DomainError } from "../http/errors.ts";
import type { Clock } from "../lib/clock.ts";

export type CalendarIntegrationRow = typeof calendarIntegrations.$inferSelect;

/** The calendar provider of a mail account's provider. */
export function calendarProviderOf(mailProvider: string): CalendarProvider {
  return mailProvider === "gmail" ? "google" : "outlook";
}

/** A calendar connected without a mailbox, as the list shows it. */
function presentRow(row: CalendarIntegrationRow): CalendarIntegration {
  return {
    provider: row.provider === "google" ? "google" : "outlook",
    isConnected: true,
    email: row.email,
    accountId: null,
    id: row.id,
    status: row.status === "reauth_required" ? "reauth_required" : "active",
    calendarName: row.calendarName,
    lastSyncedAt: row.lastSyncedAt?.toISOString() ?? null,
    lastError: row.lastError,
  };
}

/**
 * Connected calendars, each with its own calendar-only grant: one per connected mail account, and
 * any number connected without a mailbox (another provider's, or another account's).
 */
export function createCalendarIntegrations(db: Db, clock: Clock, vault: TokenVault) {
  return {
    async rows(userId: string): Promise<CalendarIntegrationRow[]> {
      return db
        .select()
        .from(calendarIntegrations)
        .where(eq(calendarIntegrations.userId, userId))
        .orderBy(asc(calendarIntegrations.connectedAt), asc(calendarIntegrations.id));
    },

    async get(userId: string, id: string): Promise<CalendarIntegrationRow | undefined> {
      const [row] = await db
        .select()
        .from(calendarIntegrations)
        .where(and(eq(calendarIntegrations.id, id), eq(calendarIntegrations.userId, userId)));
      return row;
    },

    /** Spec section 7: one entry per connected mail account, its calendar connected or not. */
    async list(userId: string): Promise<CalendarIntegration[]> {
      const accounts = await db
        .select({ id: mailAccounts.id, provider: mailAccounts.provider, email: mailAccounts.email })
        .from(mailAccounts)
        .where(eq(mailAccounts.userId, userId))
        .orderBy(asc(mailAccounts.connectedAt), asc(mailAccounts.id));
      const rows = await this.rows(userId);
      const byAccount = new Map(rows.map((row) => [row.accountId, row]));
      const calendarOnly = rows.filter((row) => row.accountId === null).map(presentRow);
      const perMailbox = accounts.map((account): CalendarIntegration => {
        const row = byAccount.get(account.id);
        return {
          provider: calendarProviderOf(account.provider),
          isConnected: row !== undefined,
          email: account.email,
          accountId: account.id,
          id: row?.id ?? null,
          status: row ? (row.status === "reauth_required" ? "reauth_required" : "active") : null,
          calendarName: row?.calendarName ?? null,
          lastSyncedAt: row?.lastSyncedAt?.toISOString() ?? null,
          lastError: row?.lastError ?? null,
        };
      });
      return [...perMailbox, ...calendarOnly];
    },

    /**
     * Records a completed calendar consent for one of the user's accounts. Connecting again (to
     * repair a lost grant) keeps the synced events and replaces the tokens.
     */
    async saveGrant(input: {
      userId: string;
      /** The mailbox it belongs to, or null for a calendar-only connection. */
      accountId: string | null;
      provider: CalendarProvider;
      providerAccountId: string;
      email: string;
      tokens: ProviderTokens;
    }): Promise<{ id: string; created: boolean }> {
      const now = clock.now();
      const secrets = {
        accessTokenCiphertext: vault.encrypt(input.tokens.accessToken, "provider-access-token"),
        accessTokenExpiresAt: input.tokens.expiresAt,
        scope: input.tokens.scope ?? null,
        ...(input.tokens.refreshToken
          ? { refreshTokenCiphertext: vault.encrypt(input.tokens.refreshToken, "provider-refresh-token") }
          : {}),
      };
      // The same calendar connected again (to repair a lost grant), by its mailbox or its account.
      const existing = await db
        .select({ id: calendarIntegrations.id })
        .from(calendarIntegrations)
        .where(
          and(
            eq(calendarIntegrations.userId, input.userId),
            or(
              input.accountId === null ? undefined : eq(calendarIntegrations.accountId, input.accountId),
              and(
                eq(calendarIntegrations.provider, input.provider),
                eq(calendarIntegrations.providerAccountId, input.providerAccountId),
              ),
            ),
          ),
        );
      if (existing[0]) {
        await db
          .update(calendarIntegrations)
          .set({
            ...secrets,
            email: input.email,
            providerAccountId: input.providerAccountId,
            ...(input.accountId === null ? {} : { accountId: input.accountId }),
            status: "active",
            lastError: null,
            updatedAt: now,
          })
          .where(eq(calendarIntegrations.id, existing[0].id));
        return { id: existing[0].id, created: false };
      }
      if (!input.tokens.refreshToken) {
        throw new DomainError(
          "bad_request",
          "The calendar was connected without offline access. Please try again.",
        );
      }
      const [row] = await db
        .insert(calendarIntegrations)
        .values({
          ...secrets,
          userId: input.userId,
          accountId: input.accountId,
          provider: input.provider,
          providerAccountId: input.providerAccountId,
          email: input.email,
          status: "active",
          connectedAt: now,
          updatedAt: now,
        })
        .onConflictDoNothing()
        .returning({ id: calendarIntegrations.id });
      // Another connect of the same calendar won the race: store these tokens on its row.
      if (!row) return this.saveGrant(input);
      return { id: row.id, created: true };
    },

    async setCalendar(
      id: string,
      info: { id: string; name: string; timeZone: string | null },
    ): Promise<void> {
      await db
        .update(calendarIntegrations)
        .set({
          calendarId: info.id,
          calendarName: info.name,
          calendarTimeZone: info.timeZone,
          updatedAt: clock.now(),
        })
        .where(eq(calendarIntegrations.id, id));
    },

    async recordError(id: string, message: string, reauth: boolean): Promise<void> {
      await db
        .update(calendarIntegrations)
        .set({ lastError: message, ...(reauth ? { status: "reauth_required" } : {}), updatedAt: clock.now() })
        .where(eq(calendarIntegrations.id, id));
    },

    /** Disconnects a calendar: its tokens and every synced event (by cascade) are deleted. */
    async remove(userId: string, id: string): Promise<void> {
      const deleted = await db
        .delete(calendarIntegrations)
        .where(and(eq(calendarIntegrations.id, id), eq(calendarIntegrations.userId, userId)))
        .returning({ id: calendarIntegrations.id });
      if (deleted.length === 0) throw new DomainError("not_found", "No such calendar.");
    },
  };
}

export type CalendarIntegrations = ReturnType<typeof createCalendarIntegrations>;
