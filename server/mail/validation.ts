import type { z } from "zod";
import { DomainError } from "../http/errors.ts";

/** Parses request input; a failure is 400 validation_failed naming each bad field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.map(String).join(".") || "body";
    fields[key] ??= issue.message;
  }
  throw new DomainError("validation_failed", `Invalid ${Object.keys(fields).join(", ")}`, fields);
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * An :id path parameter; anything that is not a UUID cannot name a row, so it is the same 404
 * ("No such agent.") the service gives for a UUID that names none.
 */
export function idParam(params: unknown, what: "email" | "agent" | "memory" = "email"): string {
  const id = (params as { id?: unknown } | undefined)?.id;
  if (typeof id !== "string" || !UUID.test(id)) throw new DomainError("not_found", `No such ${what}.`);
  return id;
}
