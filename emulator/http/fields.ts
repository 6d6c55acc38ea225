import type { FastifyInstance } from "fastify";

/**
 * OAuth endpoints take application/x-www-form-urlencoded bodies, which Fastify does not parse on
 * its own. A repeated parameter keeps its first value; the endpoints never need lists.
 */
export function registerFormBodyParser(app: FastifyInstance): void {
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string", bodyLimit: 64 * 1024 },
    (_request, body, done) => {
      done(null, parseForm(typeof body === "string" ? body : body.toString("utf8")));
    },
  );
}

export function parseForm(text: string): Record<string, string> {
  const fields = new Map<string, string>();
  for (const [key, value] of new URLSearchParams(text)) {
    if (!fields.has(key)) fields.set(key, value);
  }
  return Object.fromEntries(fields);
}

/** Narrows a parsed query string or body (form or JSON) to its string-valued fields. */
export function stringFields(value: unknown): Record<string, string> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
  const fields: Record<string, string> = {};
  for (const [key, raw] of Object.entries(value)) {
    const first: unknown = Array.isArray(raw) ? raw[0] : raw;
    if (typeof first === "string") fields[key] = first;
    else if (typeof first === "number" || typeof first === "boolean") fields[key] = String(first);
  }
  return fields;
}

/** Empty parameters count as absent, as both providers treat `code=` like a missing code. */
export function field(fields: Record<string, string>, name: string): string | undefined {
  const value = fields[name];
  return value === undefined || value === "" ? undefined : value;
}
