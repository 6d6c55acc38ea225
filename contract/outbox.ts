import { z } from "zod";
import { sendEmailRequestSchema } from "./mail.ts";

/**
 * Held mail (issue 36, "Undo send"): POST /api/emails/send stores the request on the server and
 * sends it when the person's delay ends. GET /api/outbox lists what is held or could not be sent;
 * DELETE /api/outbox/:id takes it back (Undo) and answers the request, so compose reopens intact.
 */

/** POST /api/emails/send answers this; `success` is the spec's field. */
export const sendEmailAnswerSchema = z.object({
  success: z.literal(true),
  /** The held mail, for Undo (DELETE /api/outbox/:id). */
  outboxId: z.string().uuid(),
  /** When it goes out (ISO 8601, the server's clock). */
  sendAt: z.string(),
  /** The person's "Undo send" delay it was held for: how long the client offers Undo. */
  delaySeconds: z.number().int().nonnegative(),
});
export type SendEmailAnswer = z.infer<typeof sendEmailAnswerSchema>;

/** pending: waiting for its time (or a retry); sending: with the provider now; failed: kept, not sent. */
export const OUTBOX_STATUSES = ["pending", "sending", "failed"] as const;

export const heldMailSchema = z.object({
  id: z.string().uuid(),
  status: z.enum(OUTBOX_STATUSES),
  sendAt: z.string(),
  /** Why it was not sent ("Not sent: <reason>" in the client), null while all is well. */
  error: z.string().nullable(),
  attempts: z.number().int().nonnegative(),
  /** Send later (issue 37): the person chose the time; false for a mail held only for Undo. */
  scheduled: z.boolean(),
  request: sendEmailRequestSchema,
});
export type HeldMail = z.infer<typeof heldMailSchema>;

export const outboxListSchema = z.object({ items: z.array(heldMailSchema) });
export type OutboxList = z.infer<typeof outboxListSchema>;

/** DELETE /api/outbox/:id answers the request as it was sent, for compose to reopen. */
export const undoAnswerSchema = z.object({ request: sendEmailRequestSchema });
export type UndoAnswer = z.infer<typeof undoAnswerSchema>;

/** The compose request as held and as given back by Undo. */
export type HeldRequest = z.infer<typeof sendEmailRequestSchema>;

/** POST /api/outbox/:id/send (Send now): sent, or still here with why (a failed try). */
export const sendNowAnswerSchema = z.object({ sent: z.boolean(), item: heldMailSchema.nullable() });
export type SendNowAnswer = z.infer<typeof sendNowAnswerSchema>;
