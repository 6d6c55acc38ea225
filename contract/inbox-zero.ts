import { z } from "zod";
import { emailSchema } from "./mail.ts";

/** Spec section 9: the Inbox Zero card stack shows the next 10 emails. */
export const INBOX_ZERO_STACK_SIZE = 10;

/**
 * One card of the Inbox Zero stack: the list's Email plus what the card shows of the stored AI
 * analysis (spec section 2: the AI summary and urgency when present).
 */
export const inboxZeroCardSchema = emailSchema.extend({
  summary: z.string().nullable(),
  /** high, medium or another word the analyzer used (spec section 3). */
  urgency: z.string().nullable(),
});
export type InboxZeroCard = z.infer<typeof inboxZeroCardSchema>;

/** GET /api/inbox-zero/queue: unread inbox mail of every account not yet processed in the mode. */
export const inboxZeroQueueQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(50).default(INBOX_ZERO_STACK_SIZE),
});

export const inboxZeroQueueSchema = z.object({
  /** Newest first. */
  emails: z.array(inboxZeroCardSchema),
  /** How many such emails there are in all ('N emails to go'), these included. */
  remaining: z.number().int().nonnegative(),
});
export type InboxZeroQueue = z.infer<typeof inboxZeroQueueSchema>;

/** PUT /api/inbox-zero/processed/:id answers the mark; DELETE (undo) answers it cleared. */
export const inboxZeroProcessedSchema = z.object({
  id: z.string(),
  processedAt: z.string().nullable(),
});
export type InboxZeroProcessed = z.infer<typeof inboxZeroProcessedSchema>;
