import { and, eq } from "drizzle-orm";
import type { MailProvider } from "../../contract/auth.ts";
import type { CalendarProvider } from "../../contract/calendar.ts";
import type { TokenRows } from "../auth/account-tokens.ts";
import { calendarIntegrations } from "../db/schema.ts";

/** The OAuth client that refreshes a calendar grant: the same app registration as mail sign-in. */
export function oauthProviderOf(provider: CalendarProvider | string): MailProvider {
  return provider === "google" ? "gmail" : "outlook";
}

/** Calendar integrations' tokens, for the shared token service (refresh, rotation, reauth marks). */
export const calendarTokenRows: TokenRows = {
  async read(q, userId, id, forUpdate) {
    const query = q
      .select()
      .from(calendarIntegrations)
      .where(and(eq(calendarIntegrations.id, id), eq(calendarIntegrations.userId, userId)));
    const [row] = forUpdate ? await query.for("update") : await query;
    return row ? { ...row, provider: oauthProviderOf(row.provider) } : undefined;
  },
  store(q, userId, id, update) {
    return q
      .update(calendarIntegrations)
      .set(update)
      .where(and(eq(calendarIntegrations.id, id), eq(calendarIntegrations.userId, userId)));
  },
  markReauthRequired(q, userId, id, at) {
    return q
      .update(calendarIntegrations)
      .set({ status: "reauth_required", updatedAt: at })
      .where(and(eq(calendarIntegrations.id, id), eq(calendarIntegrations.userId, userId)));
  },
};
