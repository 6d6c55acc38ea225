import { eq } from "drizzle-orm";
import {
  type DataRetention,
  dataRetentionSchema,
  type PrivacySettings,
  type PrivacySettingUpdate,
} from "../../contract/privacy.ts";
import type { Db } from "../db/client.ts";
import { privacySettings } from "../db/schema.ts";
import type { Clock } from "../lib/clock.ts";

export type PrivacySettingsRow = typeof privacySettings.$inferSelect;

export function presentSettings(row: PrivacySettingsRow | undefined): PrivacySettings {
  return {
    doNotSell: row?.doNotSell ?? false,
    analyticsOptOut: row?.analyticsOptOut ?? false,
    marketingOptOut: row?.marketingOptOut ?? false,
    dataRetention: retentionOf(row),
    deletionScheduledFor: row?.deletionScheduledFor?.toISOString() ?? null,
  };
}

/** The row's retention, standard (the default) when there is no row or an unknown value. */
export function retentionOf(row: Pick<PrivacySettingsRow, "dataRetention"> | undefined): DataRetention {
  const parsed = dataRetentionSchema.safeParse(row?.dataRetention);
  return parsed.success ? parsed.data : "standard";
}

/** A person's privacy settings; a missing row reads as the defaults and is created on first change. */
export function createPrivacySettingsService(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;

  async function read(userId: string): Promise<PrivacySettingsRow | undefined> {
    const [row] = await db.select().from(privacySettings).where(eq(privacySettings.userId, userId));
    return row;
  }

  return {
    read,
    async get(userId: string): Promise<PrivacySettings> {
      return presentSettings(await read(userId));
    },
    /** Applies the one changed setting (already validated) and answers all settings. */
    async update(userId: string, change: PrivacySettingUpdate): Promise<PrivacySettings> {
      const now = clock.now();
      const [row] = await db
        .insert(privacySettings)
        .values({ userId, ...change, updatedAt: now })
        .onConflictDoUpdate({ target: privacySettings.userId, set: { ...change, updatedAt: now } })
        .returning();
      return presentSettings(row);
    },
    /** Records a scheduled deletion date (or clears it with null). */
    async setDeletion(userId: string, at: Date | null): Promise<PrivacySettingsRow | undefined> {
      const now = clock.now();
      const [row] = await db
        .insert(privacySettings)
        .values({ userId, deletionScheduledFor: at, updatedAt: now })
        .onConflictDoUpdate({
          target: privacySettings.userId,
          set: { deletionScheduledFor: at, updatedAt: now },
        })
        .returning();
      return row;
    },
  };
}

export type PrivacySettingsService = ReturnType<typeof createPrivacySettingsService>;
