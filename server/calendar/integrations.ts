import { and, asc, eq } from "drizzle-orm";
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

/** Connected calendars: one per connected mail account, each with its own calendar-only grant. */
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
      const byAccount = new Map((await this.rows(userId)).map((row) => [row.accountId, row]));
      return accounts.map((account) => {
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
    },

    /**
     * Records a completed calendar consent for one of the user's accounts. Connecting again (to
     * repair a lost grant) keeps the synced events and replaces the tokens.
     */
    async saveGrant(input: {
      userId: string;
      accountId: string;
      provider: CalendarProvider;
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
      const existing = await db
        .select({ id: calendarIntegrations.id })
        .from(calendarIntegrations)
        .where(
          and(
            eq(calendarIntegrations.accountId, input.accountId),
            eq(calendarIntegrations.userId, input.userId),
          ),
        );
      if (existing[0]) {
        await db
          .update(calendarIntegrations)
          .set({ ...secrets, email: input.email, status: "active", lastError: null, updatedAt: now })
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
          email: input.email,
          status: "active",
          connectedAt: now,
          updatedAt: now,
        })
        .onConflictDoUpdate({
          target: calendarIntegrations.accountId,
          set: { ...secrets, status: "active", updatedAt: now },
        })
        .returning({ id: calendarIntegrations.id });
      if (!row) throw new Error("insert into calendar_integrations returned nothing");
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
