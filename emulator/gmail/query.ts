import type { StoredMessage } from "../mailbox/mailbox.ts";

/**
 * Gmail's search language, the part clients use for sync and for the search box: from:, to:,
 * subject:, is:, in:, label:, category:, newer_than:/older_than:, after:/before:, -negation,
 * quoted phrases and plain words (matched in subject, addresses and body text).
 */
export interface GmailQuery {
  readonly test: (message: StoredMessage, text: () => string) => boolean;
  /** A label every match carries, so listing can walk that label's index. */
  readonly requiredLabel: string | undefined;
  /** in:spam, in:trash or in:anywhere lift the default exclusion of spam and trash. */
  readonly includesSpamTrash: boolean;
  readonly needsText: boolean;
}

export class QueryError extends Error {}

type Predicate = (message: StoredMessage, text: () => string) => boolean;

const IS_LABELS: Record<string, string> = {
  unread: "UNREAD",
  starred: "STARRED",
  important: "IMPORTANT",
  sent: "SENT",
  draft: "DRAFT",
  inbox: "INBOX",
};
const IN_LABELS: Record<string, string> = {
  inbox: "INBOX",
  spam: "SPAM",
  trash: "TRASH",
  sent: "SENT",
  drafts: "DRAFT",
  starred: "STARRED",
  important: "IMPORTANT",
  unread: "UNREAD",
};
const UNIT_MS: Record<string, number> = {
  h: 3_600_000,
  d: 86_400_000,
  m: 30 * 86_400_000,
  y: 365 * 86_400_000,
};

function tokenize(q: string): string[] {
  const tokens: string[] = [];
  const pattern = /-?[a-zA-Z_]+:\([^)]*\)|-?[a-zA-Z_]+:"[^"]*"|-?"[^"]*"|\S+/g;
  for (const match of q.matchAll(pattern)) tokens.push(match[0]);
  return tokens;
}

function unquote(value: string): string {
  return value
    .replace(/^\((.*)\)$/s, "$1")
    .replace(/^"(.*)"$/s, "$1")
    .trim()
    .toLowerCase();
}

function parseDay(value: string): number {
  const match = /^(\d{4})[/-](\d{1,2})[/-](\d{1,2})$/.exec(value);
  if (match !== null) return Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  throw new QueryError(`Invalid date: ${value}`);
}

export function parseGmailQuery(q: string | undefined, now: number): GmailQuery {
  // Terms are ANDed; `a OR b` joins two terms into one alternative group (OR binds tighter, as
  // in Gmail: `a OR b c` means (a OR b) AND c).
  const groups: Array<{ alternatives: Predicate[]; labels: Array<string | undefined> }> = [];
  let joinNext = false;
  let includesSpamTrash = false;
  let needsText = false;
  for (const raw of tokenize(q ?? "")) {
    if (raw === "AND") continue;
    if (raw === "OR") {
      joinNext = groups.length > 0;
      continue;
    }
    let termLabel: string | undefined;
    const negate = raw.startsWith("-") && raw.length > 1;
    const token = negate ? raw.slice(1) : raw;
    const colon = token.indexOf(":");
    const operator = colon > 0 && !token.startsWith('"') ? token.slice(0, colon).toLowerCase() : "";
    const value = operator === "" ? unquote(token) : unquote(token.slice(colon + 1));
    let predicate: Predicate;
    switch (operator) {
      case "from":
        predicate = (m) => m.headers.from.toLowerCase().includes(value);
        break;
      case "to":
        predicate = (m) =>
          m.headers.to.toLowerCase().includes(value) || m.headers.cc.toLowerCase().includes(value);
        break;
      case "subject":
        predicate = (m) => m.headers.subject.toLowerCase().includes(value);
        break;
      case "is":
      case "in":
      case "label":
      case "category": {
        if (value === "anywhere") {
          includesSpamTrash = true;
          continue;
        }
        if (operator === "is" && value === "read") {
          predicate = (m) => !m.labels.has("UNREAD");
          break;
        }
        const label =
          operator === "category"
            ? `CATEGORY_${value.toUpperCase()}`
            : ((operator === "is" ? IS_LABELS[value] : IN_LABELS[value]) ?? value.toUpperCase());
        if (label === "SPAM" || label === "TRASH") includesSpamTrash = true;
        if (!negate) termLabel = label;
        predicate = (m) => m.labels.has(label) || m.labels.has(value);
        break;
      }
      case "newer_than":
      case "older_than": {
        const match = /^(\d+)([hdmy])$/.exec(value);
        if (match === null) throw new QueryError(`Invalid ${operator} value: ${value}`);
        const cutoff = now - Number(match[1]) * (UNIT_MS[match[2] ?? "d"] ?? 0);
        predicate =
          operator === "newer_than" ? (m) => m.internalDate >= cutoff : (m) => m.internalDate < cutoff;
        break;
      }
      case "after":
      case "before": {
        const at = parseDay(value);
        predicate = operator === "after" ? (m) => m.internalDate >= at : (m) => m.internalDate < at;
        break;
      }
      case "has":
        predicate =
          value === "userlabels"
            ? (m) => [...m.labels].some((label) => label.startsWith("Label_"))
            : () => false;
        if (value === "list-unsubscribe" || value === "unsubscribe")
          predicate = (m) => m.headers.listUnsubscribe !== "";
        break;
      case "rfc822msgid":
        predicate = (m) =>
          m.headers.messageId.toLowerCase().replace(/[<>]/g, "") === value.replace(/[<>]/g, "");
        break;
      default: {
        needsText = true;
        const words = value.split(/\s+/).filter((word) => word !== "");
        predicate = (_m, text) => {
          const haystack = text();
          return words.every((word) => haystack.includes(word));
        };
      }
    }
    const term: Predicate = negate ? (m, text) => !predicate(m, text) : predicate;
    const last = groups.at(-1);
    if (joinNext && last) {
      last.alternatives.push(term);
      last.labels.push(termLabel);
    } else {
      groups.push({ alternatives: [term], labels: [termLabel] });
    }
    joinNext = false;
  }
  // Only a label every alternative of a group requires lets listing walk that label's index.
  const requiredLabel = groups.find((g) => g.labels.length === 1 && g.labels[0] !== undefined)?.labels[0];
  return {
    test: (message, text) =>
      groups.every((g) => g.alternatives.some((alternative) => alternative(message, text))),
    requiredLabel,
    includesSpamTrash,
    needsText,
  };
}
