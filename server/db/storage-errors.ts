import { isConnectionError } from "./connection-errors.ts";

/** PostgreSQL's SQLSTATE disk_full (class 53, insufficient resources). */
export const DISK_FULL_SQLSTATE = "53100";

/**
 * The database could not write because its disk is full. Carries SQLSTATE 53100 as its `code`, so
 * whoever reads codes (isStorageFullError, the HTTP error handler) treats it like PostgreSQL's own.
 */
export class StorageFullError extends Error {
  override name = "StorageFullError";
  readonly code = DISK_FULL_SQLSTATE;
}

/**
 * Errors that mean the database's disk is full, not that the statement was wrong: PostgreSQL's
 * 53100 (a table, index or WAL file could not grow; PGlite reports the same), a file system's
 * ENOSPC or EDQUOT, or our own StorageFullError. Found on the error or down its `cause` chain
 * (drizzle wraps driver errors).
 */
export function isStorageFullError(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (code === DISK_FULL_SQLSTATE || code === "ENOSPC" || code === "EDQUOT") return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * A background task's failure that belongs to a storage episode (a full disk, or the database
 * gone while it is restarted): the storage watch logs the episode once, so the task only tries
 * again on its next round instead of logging an error each time.
 */
export function isStorageEpisodeError(err: unknown): boolean {
  return isStorageFullError(err) || isConnectionError(err);
}
