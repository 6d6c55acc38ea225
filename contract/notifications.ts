import { z } from "zod";

/**
 * Notifications (issue 38, decision 0075): which new mail a person is told about, and the Web Push
 * contract between the server and the service worker.
 */

/** "off" (the default), "important" (the default once turned on) or "all" new mail. */
export const NOTIFICATION_MODES = ["off", "important", "all"] as const;
export type NotificationMode = (typeof NOTIFICATION_MODES)[number];

/** Wall-clock time of day, 24-hour "HH:MM". */
export const clockTimeSchema = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be HH:MM (24-hour)");

/** Quiet hours in the person's time zone; `end` before `start` spans midnight (22:00-07:00). */
export const quietHoursSchema = z
  .object({ start: clockTimeSchema, end: clockTimeSchema })
  .refine((q) => q.start !== q.end, { message: "start and end must differ" });
export type QuietHours = z.infer<typeof quietHoursSchema>;

/** An IANA zone name the runtime knows ("Europe/Paris"). */
export const timeZoneSchema = z
  .string()
  .min(1)
  .max(64)
  .refine(
    (zone) => {
      try {
        new Intl.DateTimeFormat("en-US", { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    },
    { message: "unknown time zone" },
  );

/** GET/PUT /api/notifications/settings. */
export const notificationSettingsSchema = z.object({
  mode: z.enum(NOTIFICATION_MODES),
  /** Connected accounts whose mail is never notified (every other account is on). */
  mutedAccountIds: z.array(z.uuid()).max(50),
  quietHours: quietHoursSchema.nullable(),
  timeZone: timeZoneSchema,
});
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

export const notificationSettingsPatchSchema = notificationSettingsSchema
  .partial()
  .strict()
  .refine((p) => Object.keys(p).length > 0, { message: "nothing to change" });
export type NotificationSettingsPatch = z.infer<typeof notificationSettingsPatchSchema>;

/** GET /api/notifications/vapid-key: the application server key for PushManager.subscribe. */
export const vapidKeyResponseSchema = z.object({ publicKey: z.string().regex(/^[A-Za-z0-9_-]{80,100}$/) });
export type VapidKeyResponse = z.infer<typeof vapidKeyResponseSchema>;

/** POST /api/notifications/subscriptions: PushSubscription.toJSON() as the browser gives it. */
export const pushSubscriptionInputSchema = z.object({
  endpoint: z.url({ protocol: /^https?$/ }).max(2048),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    // 65-byte uncompressed P-256 point and 16-byte secret, base64url (RFC 8291).
    p256dh: z.string().regex(/^[A-Za-z0-9_-]{86,88}={0,2}$/),
    auth: z.string().regex(/^[A-Za-z0-9_-]{22,24}={0,2}$/),
  }),
});
export type PushSubscriptionInput = z.infer<typeof pushSubscriptionInputSchema>;

/** DELETE /api/notifications/subscriptions. */
export const pushSubscriptionRemoveSchema = z.object({ endpoint: z.string().min(1).max(2048) });

/**
 * The one payload a push carries, encrypted (RFC 8291): sender and subject, never the body. The
 * service worker shows title = from, body = subject, and opens /dashboard?email=<emailId> on click.
 */
export const pushPayloadSchema = z
  .object({
    type: z.literal("mail"),
    emailId: z.string().min(1).max(64),
    from: z.string().max(200),
    subject: z.string().max(300),
  })
  .strict();
export type PushPayload = z.infer<typeof pushPayloadSchema>;

/** The message the service worker posts to a focused tab instead of showing the notification. */
export const PUSH_CLIENT_MESSAGE = "mailwise:push" as const;
