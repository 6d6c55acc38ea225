import { conversationId } from "../../mailbox/ids.ts";
import type { StoredMessage } from "../../mailbox/mailbox.ts";

export class FilterError extends Error {}

type Getter = (message: StoredMessage, mailboxKey: string) => string | number | boolean;

const FIELDS: Record<string, Getter> = {
  isread: (m) => !m.labels.has("UNREAD"),
  isdraft: (m) => m.labels.has("DRAFT"),
  receiveddatetime: (m) => m.internalDate,
  "flag/flagstatus": (m) =>
    m.flagComplete ? "complete" : m.labels.has("STARRED") ? "flagged" : "notFlagged",
  importance: (m) => (m.labels.has("IMPORTANT") ? "high" : "normal"),
  inferenceclassification: (m) =>
    m.labels.has("CATEGORY_PERSONAL") || m.labels.has("IMPORTANT") ? "focused" : "other",
  subject: (m) => m.headers.subject,
  internetmessageid: (m) => m.headers.messageId,
  // Graph's conversationId is derived from the thread (mailbox/ids.ts), so it is compared as such.
  conversationid: (m, key) => conversationId(key, m.threadId),
  "from/emailaddress/address": (m) => (/<([^>]+)>/.exec(m.headers.from)?.[1] ?? m.headers.from).toLowerCase(),
};

function literal(text: string): string | number | boolean {
  if (text === "true" || text === "false") return text === "true";
  const quoted = /^'(.*)'$/.exec(text);
  if (quoted !== null) return (quoted[1] ?? "").replace(/''/g, "'");
  // Unquoted date-times compare as instants, as Graph does for receivedDateTime.
  const date = Date.parse(text);
  if (/^\d{4}-\d{2}-\d{2}/.test(text) && Number.isFinite(date)) return date;
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  throw new FilterError(`Invalid filter clause: unsupported literal ${text}`);
}

/** The property a `$filter`'s first comparison reads, lower-case ('' when there is none). */
export function firstFilterProperty(value: string | undefined): string {
  return (/^\s*\(?\s*([\w/]+)/.exec(value ?? "")?.[1] ?? "").toLowerCase();
}

/**
 * `$filter` with comparisons joined by `and`: enough for sync (`isRead eq false`, date ranges) and
 * for a conversation's messages (`conversationId eq '...'`).
 */
export function parseFilter(
  value: string | undefined,
  mailboxKey = "",
): ((message: StoredMessage) => boolean) | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const clauses = value.split(/\s+and\s+/i).map((clause) => {
    const match = /^\s*\(?\s*([\w/]+)\s+(eq|ne|gt|ge|lt|le)\s+(.+?)\s*\)?\s*$/i.exec(clause);
    if (match === null) throw new FilterError("Invalid filter clause");
    const getter = FIELDS[(match[1] ?? "").toLowerCase()];
    if (getter === undefined)
      throw new FilterError(
        `Could not find a property named '${match[1]}' on type 'microsoft.graph.message'.`,
      );
    const operator = (match[2] ?? "").toLowerCase();
    const expected = literal(match[3] ?? "");
    return (message: StoredMessage) => {
      const actual = getter(message, mailboxKey);
      switch (operator) {
        case "eq":
          return actual === expected;
        case "ne":
          return actual !== expected;
        case "gt":
          return actual > expected;
        case "ge":
          return actual >= expected;
        case "lt":
          return actual < expected;
        default:
          return actual <= expected;
      }
    };
  });
  return (message) => clauses.every((clause) => clause(message));
}
