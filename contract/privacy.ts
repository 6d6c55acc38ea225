import { z } from "zod";
import { DATA_RETENTIONS } from "./privacy-texts.ts";

export * from "./privacy-texts.ts";

/** Spec section 9: minimal 90 days, standard 2 years (default), extended 7 years. */
export const dataRetentionSchema = z.enum(DATA_RETENTIONS);

/** Spec section 3's privacy settings, plus the scheduled deletion date when one is pending. */
export const privacySettingsSchema = z.object({
  doNotSell: z.boolean(),
  analyticsOptOut: z.boolean(),
  marketingOptOut: z.boolean(),
  dataRetention: dataRetentionSchema,
  /** ISO instant the account will be deleted at; null when no deletion is scheduled. */
  deletionScheduledFor: z.string().nullable(),
});
export type PrivacySettings = z.infer<typeof privacySettingsSchema>;

/**
 * POST /api/privacy/settings takes the single changed setting (spec section 7): exactly one key.
 * Anything else (no key, two keys, an unknown key, a wrong type) is a 400.
 */
export const privacySettingUpdateSchema = z.union([
  z.strictObject({ doNotSell: z.boolean() }),
  z.strictObject({ analyticsOptOut: z.boolean() }),
  z.strictObject({ marketingOptOut: z.boolean() }),
  z.strictObject({ dataRetention: dataRetentionSchema }),
]);
export type PrivacySettingUpdate = z.infer<typeof privacySettingUpdateSchema>;

export const privacyDeleteRequestSchema = z.strictObject({ immediate: z.boolean() });
export type PrivacyDeleteRequest = z.infer<typeof privacyDeleteRequestSchema>;

export const privacyDeleteResponseSchema = z.object({
  /** true when everything is gone already (immediate). */
  deleted: z.boolean(),
  /** ISO instant of the scheduled deletion; null for an immediate one. */
  scheduledFor: z.string().nullable(),
});
export type PrivacyDeleteResponse = z.infer<typeof privacyDeleteResponseSchema>;
