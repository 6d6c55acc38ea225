import type { FastifyInstance } from "fastify";
import { DomainError } from "./errors.ts";

/**
 * The deepest nesting of arrays and objects a request may carry. The API's deepest shape (agent
 * preferences) is three levels; 64 leaves room and keeps any walk of a body short.
 */
export const MAX_JSON_DEPTH = 64;

/** One value still to look at, and how to name where it sits if it holds a NUL. */
interface Pending {
  value: unknown;
  depth: number;
  parent: Pending | undefined;
  key: string;
}

function pathOf(entry: Pending): string {
  const keys: string[] = [];
  for (let at: Pending | undefined = entry; at?.parent; at = at.parent) keys.push(at.key);
  return keys.reverse().join(".");
}

/**
 * Where in a parsed request value the first NUL character is ("q", "preferences.name"), if any.
 * Walked with a stack of its own, not by recursion, so no input can exhaust the call stack;
 * nesting deeper than MAX_JSON_DEPTH is refused (400 json_too_deep) when the walk reaches it.
 */
export function nulPath(value: unknown): string | undefined {
  const stack: Pending[] = [{ value, depth: 0, parent: undefined, key: "" }];
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    if (entry.key.includes("\0")) return pathOf(entry);
    const inner = entry.value;
    if (typeof inner === "string") {
      if (inner.includes("\0")) return pathOf(entry) || "body";
      continue;
    }
    if (!inner || typeof inner !== "object") continue;
    const depth = entry.depth + 1;
    if (depth > MAX_JSON_DEPTH) {
      throw new DomainError("json_too_deep", `JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
    }
    const children = Array.isArray(inner)
      ? inner.map((v, i) => [String(i), v] as const)
      : Object.entries(inner);
    // Pushed last to first, so the first NUL in document order is the one named.
    for (let i = children.length - 1; i >= 0; i--) {
      const [key, child] = children[i] as readonly [string, unknown];
      stack.push({ value: child, depth, parent: entry, key });
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
