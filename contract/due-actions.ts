import { z } from "zod";

/**
 * Due actions that need the person (issue 37, decision 0073), whatever their kind (a held or
 * scheduled mail, a snooze wake-up, a follow-up check): GET /api/due-actions/failed lists them;
 * POST /api/due-actions/:id/retry runs a given-up one again now; DELETE /api/due-actions/:id
 * dismisses it. A failure is never dropped without the person seeing it.
 */

/** failed: given up after the retry policy, kept until Retry or Dismiss; waiting: needs an account reconnected, runs once it is. */
export const ATTENTION_STATUSES = ["failed", "waiting"] as const;

export const dueActionAttentionSchema = z.object({
  id: z.string().uuid(),
  kind: z.string(),
  /** What the action does, in words ("Send “Lunch?” to priya@example.com"). */
  label: z.string(),
  status: z.enum(ATTENTION_STATUSES),
  /** Why its last run failed, as the person is shown it. */
  reason: z.string().nullable(),
  /** When it was due (ISO 8601, the server's clock). */
  runAt: z.string(),
  attempts: z.number().int().nonnegative(),
});
export type DueActionAttention = z.infer<typeof dueActionAttentionSchema>;

export const dueActionAttentionListSchema = z.object({ items: z.array(dueActionAttentionSchema) });
export type DueActionAttentionList = z.infer<typeof dueActionAttentionListSchema>;
