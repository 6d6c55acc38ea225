import { DomainError } from "../http/errors.ts";

/** A position in the newest-first list: the last row's (received_at, id). */
export interface ListPosition {
  receivedAt: Date;
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/**
 * The times a cursor may carry: years 1 to 9999. A JavaScript Date reaches further in both
 * directions than PostgreSQL's timestamptz, and 9007199254740991 is no Date at all.
 */
const EARLIEST = Date.parse("0001-01-01T00:00:00.000Z");
const LATEST = Date.parse("9999-12-31T23:59:59.999Z");

/**
 * Opaque to clients (base64url), so the format can change without breaking them. received_at is
 * kept to the millisecond: every writer stores JavaScript Dates, which have no finer precision.
 */
export function encodeCursor(position: ListPosition): string {
  return Buffer.from(`${position.receivedAt.getTime()}|${position.id}`, "utf8").toString("base64url");
}

export function decodeCursor(cursor: string): ListPosition {
  const invalid = () => new DomainError("validation_failed", "Invalid cursor", { cursor: "Invalid cursor" });
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) throw invalid();
  const [ms, id, extra] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const time = Number(ms);
  if (extra !== undefined || !id || !UUID.test(id) || !Number.isSafeInteger(time)) throw invalid();
  if (time < EARLIEST || time > LATEST) throw invalid();
  return { receivedAt: new Date(time), id };
}
