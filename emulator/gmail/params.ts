/** Query parameters as Fastify hands them over: a string, or an array when repeated. */
export function stringList(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === "string");
  if (typeof value === "string") return value.split(",").filter((item) => item !== "");
  return [];
}

export function firstString(value: unknown): string | undefined {
  const first: unknown = Array.isArray(value) ? value[0] : value;
  return typeof first === "string" && first !== "" ? first : undefined;
}

/** Integer parameter within [min, max]; undefined when absent, NaN when malformed. */
export function intParam(value: unknown, fallback: number, min: number, max: number): number {
  const text = firstString(value);
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text)) return Number.NaN;
  return Math.min(max, Math.max(min, Number(text)));
}

export function booleanParam(value: unknown): boolean {
  return firstString(value) === "true";
}

export function bodyObject(body: unknown): Record<string, unknown> {
  return typeof body === "object" && body !== null && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : {};
}

/** Gmail accepts base64url with or without padding, and plain base64 too. */
export function decodeBase64Url(value: string): string | undefined {
  if (!/^[A-Za-z0-9+/_=-]*$/.test(value.replace(/\s/g, ""))) return undefined;
  return Buffer.from(value.replace(/\s/g, "").replace(/-/g, "+").replace(/_/g, "/"), "base64").toString(
    "utf8",
  );
}
