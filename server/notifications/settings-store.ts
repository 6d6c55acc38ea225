import { and, eq, inArray } from "drizzle-orm";
import type { NotificationSettings, NotificationSettingsPatch } from "../../contract/notifications.ts";
import type { Db } from "../db/client.ts";
import { mailAccounts, notificationSettings } from "../db/schema.ts";
import { DomainError } from "../http/errors.ts";
import type { Clock } from "../lib/clock.ts";

/** The setting plus when notifications were last turned on (mail before it is not new). */
export type StoredNotificationSettings = NotificationSettings & { enabledAt: Date | null };

const DEFAULTS: StoredNotificationSettings = {
  mode: "off",
  mutedAccountIds: [],
  quietHours: null,
  timeZone: "UTC",
  enabledAt: null,
};

export function presentNotificationSettings(s: StoredNotificationSettings): NotificationSettings {
  return { mode: s.mode, mutedAccountIds: s.mutedAccountIds, quietHours: s.quietHours, timeZone: s.timeZone };
}

export interface NotificationSettingsStore {
  read(userId: string): Promise<StoredNotificationSettings>;
  update(userId: string, patch: NotificationSettingsPatch): Promise<StoredNotificationSettings>;
}

/** The Notifications setting (issue 38), one row per person, owner-scoped. */
export function createNotificationSettingsStore(deps: { db: Db; clock: Clock }): NotificationSettingsStore {
  const { db, clock } = deps;

  async function read(userId: string): Promise<StoredNotificationSettings> {
    const [row] = await db.select().from(notificationSettings).where(eq(notificationSettings.userId, userId));
    if (!row) return { ...DEFAULTS };
    const mode = row.mode === "important" || row.mode === "all" ? row.mode : "off";
    return {
      mode,
      mutedAccountIds: row.mutedAccountIds,
      quietHours: row.quietStart && row.quietEnd ? { start: row.quietStart, end: row.quietEnd } : null,
      timeZone: row.timeZone,
      enabledAt: row.enabledAt,
    };
  }

  return {
    read,
    async update(userId, patch) {
      const current = await read(userId);
      if (patch.mutedAccountIds && patch.mutedAccountIds.length > 0) {
        // Only the person's own accounts can be muted: another id is a mistake, not a setting.
        const own = await db
          .select({ id: mailAccounts.id })
          .from(mailAccounts)
          .where(and(eq(mailAccounts.userId, userId), inArray(mailAccounts.id, patch.mutedAccountIds)));
        if (own.length !== new Set(patch.mutedAccountIds).size)
          throw new DomainError("validation_failed", "One of these accounts is not connected.", {
            mutedAccountIds: "unknown account",
          });
      }
      const next = { ...current, ...patch };
      const now = clock.now();
      // Turning it on starts from now: older unread mail is not announced all at once.
      if (current.mode === "off" && next.mode !== "off") next.enabledAt = now;
      const values = {
        mode: next.mode,
        mutedAccountIds: [...new Set(next.mutedAccountIds)],
        quietStart: next.quietHours?.start ?? null,
        quietEnd: next.quietHours?.end ?? null,
        timeZone: next.timeZone,
        enabledAt: next.enabledAt,
        updatedAt: now,
      };
      await db
        .insert(notificationSettings)
        .values({ userId, ...values })
        .onConflictDoUpdate({ target: notificationSettings.userId, set: values });
      return next;
    },
  };
}
