import type { FastifyInstance } from "fastify";
import { DomainError } from "./errors.ts";

/** Where in a parsed request value the first NUL character is ("q", "preferences.name"), if any. */
export function nulPath(value: unknown, at = ""): string | undefined {
  if (typeof value === "string") return value.includes("\0") ? at || "body" : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulPath(value[i], at ? `${at}.${i}` : String(i));
      if (found) return found;
    }
    return undefined;
  }
  if (value && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) {
      const here = at ? `${at}.${key}` : key;
      if (key.includes("\0")) return here;
      const found = nulPath(inner, here);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * PostgreSQL text and jsonb cannot hold a NUL character, so one in any string of a request (query,
 * path, JSON body) would fail deep inside a query as a 500. It carries no meaning in anything the
 * API takes, so every request with one is refused up front: 400 validation_failed naming it.
 */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook("preValidation", async (request) => {
    const field = nulPath(request.query) ?? nulPath(request.params) ?? nulPath(request.body);
    if (field) {
      throw new DomainError("validation_failed", `Invalid ${field}`, {
        [field]: "must not contain a NUL character",
      });
    }
  });
}
