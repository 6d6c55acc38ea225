/**
 * Errors that mean the connection to PostgreSQL went away (restart, failover, an administrator's
 * pg_terminate_backend, a network cut), not that the statement was wrong: worth trying again once
 * the server answers. Found on the error or down its `cause` chain (drizzle wraps driver errors).
 */
export function isConnectionError(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") {
      // Class 08: connection exception; 57P01-57P03: admin shutdown, crash shutdown, cannot connect now.
      if (code.startsWith("08") || code === "57P01" || code === "57P02" || code === "57P03") return true;
      if (["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "ENOTFOUND", "EAI_AGAIN"].includes(code))
        return true;
    }
    const message = (e as { message?: unknown }).message;
    if (
      typeof message === "string" &&
      /Connection terminated|connection error and is not queryable|Client was closed|timeout exceeded when trying to connect/i.test(
        message,
      )
    )
      return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** `postgres://user:***@host:port/db`: the URL as it can be shown in a log. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(not a valid URL)";
  }
}
