import { z } from "zod";

/**
 * Snooze (issue 37): a conversation leaves the inbox until a time, then comes back unread at the
 * top marked "Snoozed until <time>".
 *   POST   /api/conversations/:id/snooze  {until}  snooze (the whole conversation)
 *   PATCH  /api/conversations/:id/snooze  {until}  change its time
 *   DELETE /api/conversations/:id/snooze           unsnooze now (back in the inbox)
 *   GET    /api/snoozed                            the Snoozed view
 *   PUT    /api/settings/time-zone        {timeZone} the person's IANA zone (the browser's)
 */

/** The latest a snooze may wake: a year from now. */
export const SNOOZE_MAX_DAYS = 365;

export const snoozeRequestSchema = z.object({
  /** ISO 8601 with an offset or Z; in the future, at most SNOOZE_MAX_DAYS ahead. */
  until: z.string().datetime({ offset: true }),
});
export type SnoozeRequest = z.infer<typeof snoozeRequestSchema>;

export const snoozedConversationSchema = z.object({
  conversationId: z.string(),
  /** The newest snoozed message: what the row shows. */
  emailId: z.string(),
  subject: z.string(),
  from: z.string(),
  snippet: z.string(),
  accountEmail: z.string(),
  provider: z.enum(["gmail", "outlook"]),
  /** When it comes back (ISO 8601). */
  until: z.string(),
  /**
   * Why waking it failed last, when it did ("Reconnect your account to bring this mail back"):
   * the wake waits and is tried again, it is not given up.
   */
  problem: z.string().nullable(),
});
export type SnoozedConversation = z.infer<typeof snoozedConversationSchema>;

export const snoozedListSchema = z.object({ items: z.array(snoozedConversationSchema) });
export type SnoozedList = z.infer<typeof snoozedListSchema>;

export const snoozeAnswerSchema = z.object({
  conversationId: z.string(),
  /** ISO 8601; null after unsnooze. */
  until: z.string().nullable(),
});
export type SnoozeAnswer = z.infer<typeof snoozeAnswerSchema>;

export const timeZoneRequestSchema = z.object({ timeZone: z.string().min(1).max(64) });
export type TimeZoneRequest = z.infer<typeof timeZoneRequestSchema>;
