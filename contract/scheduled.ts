import { z } from "zod";

/**
 * Send later and follow-up reminders (issue 37). A scheduled mail is a held mail (contract/outbox.ts)
 * with a time the person chose; these are the limits both the server and compose apply.
 */

/** The furthest ahead a mail may be scheduled, or a reminder set: one year. */
export const SCHEDULE_MAX_AHEAD_MS = 365 * 24 * 60 * 60_000;

export const SEND_AT_PAST_MESSAGE = "The time to send is in the past. Pick a later time.";
export const SEND_AT_TOO_FAR_MESSAGE = "The time to send is more than a year ahead. Pick an earlier time.";
export const REMIND_AT_PAST_MESSAGE = "The reminder time is before the mail is sent. Pick a later time.";
export const REMIND_AT_TOO_FAR_MESSAGE = "The reminder time is more than a year ahead. Pick an earlier time.";
export const ALREADY_SENT_MESSAGE = "This mail was already sent; it can no longer be changed.";
export const BEING_SENT_MESSAGE = "This mail is being sent now; it can no longer be changed.";

/** An ISO 8601 instant with its offset ("2026-12-07T08:00:00.000Z"). */
export const isoInstantSchema = z.string().datetime({ offset: true });

/** "Remind me if no reply in": 1, 3 or 7 days after the send, or a date and time. */
export const FOLLOW_UP_DAYS = [1, 3, 7] as const;
export const followUpSchema = z.union([
  z.object({ days: z.union([z.literal(1), z.literal(3), z.literal(7)]) }).strict(),
  z.object({ at: isoInstantSchema }).strict(),
]);
export type FollowUp = z.infer<typeof followUpSchema>;

/** PATCH /api/outbox/:id: a new time for a scheduled mail. */
export const rescheduleRequestSchema = z.object({ sendAt: isoInstantSchema });
export type RescheduleRequest = z.infer<typeof rescheduleRequestSchema>;

/** What marks a conversation that came back to the inbox (emails.resurface_reason). */
export const RESURFACE_REASONS = ["no_reply", "snoozed"] as const;
export type ResurfaceReason = (typeof RESURFACE_REASONS)[number];
/** The marker's words in list rows and the reader. */
export const NO_REPLY_LABEL = "No reply yet";
