/** PostgreSQL's unique_violation, found on the error or anywhere down its `cause` chain (drizzle wraps driver errors). */
export function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error || (typeof e === "object" && e !== null); ) {
    if ((e as { code?: unknown }).code === "23505") return true;
    e = (e as { cause?: unknown }).cause;
    if (e === undefined) break;
  }
  return false;
}
