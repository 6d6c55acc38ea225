import { z } from "zod";
import { DomainError } from "../http/errors.ts";

/** GET /api/auth/{provider}?flow=redirect selects the server-redirect callback. */
export const startQuerySchema = z.object({ flow: z.enum(["page", "redirect"]).default("page") });

/**
 * The provider's redirect parameters (code, state, error, iss, ...). A repeated parameter keeps
 * its first value, as the providers do; anything not a string is dropped.
 */
export const callbackQuerySchema = z
  .record(z.string(), z.union([z.string(), z.array(z.string())]))
  .transform((q) => {
    const out: Record<string, string> = {};
    for (const [key, value] of Object.entries(q)) {
      const first = Array.isArray(value) ? value[0] : value;
      if (first !== undefined && first !== "") out[key] = first;
    }
    return out;
  });

/**
 * POST /api/auth/claim: the value the server redirect put in /auth/callback's sessionToken
 * parameter. Its shape is checked by the ticket store, which answers every refusal alike.
 */
export const claimBodySchema = z.object({ sessionToken: z.string().max(200).optional() });

/** Account ids are UUIDs; anything else cannot name an account, so it is simply not found. */
export const accountParamsSchema = z.object({ id: z.uuid() });

export const advanceClockBodySchema = z.object({
  advanceSeconds: z
    .number()
    .finite()
    .nonnegative()
    .max(10 * 365 * 86_400),
});

/** Parses request input, or answers 400 validation_failed naming each bad field. */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) fields[issue.path.join(".") || "input"] = issue.message;
  throw new DomainError("validation_failed", "The request is not valid.", fields);
}
