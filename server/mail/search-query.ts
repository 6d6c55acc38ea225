import { and, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { emails, SEARCH_FIELD_SEPARATORS } from "../db/schema.ts";

// A word still being typed: letters and digits only, so it can go into to_tsquery's syntax
// without quoting (anything else falls back to websearch_to_tsquery alone).
const TYPED_WORD = /^[\p{L}\p{N}_]+$/u;

/**
 * The tsquery for the search box's plain words: websearch_to_tsquery (quotes, `or`, `-word`),
 * with the last word also matched as a prefix while it is the last thing typed, so results
 * appear while typing ("proj" finds "project"). 'simple' config: no stemming or stop words, mail
 * is multilingual.
 */
export function searchTsQuery(q: string, prefixLast = true): SQL | null {
  const text = q.trim();
  if (!text) return null;
  const match = /(^|\s)([^\s]+)$/.exec(text);
  const last = match?.[2] ?? "";
  const head = text.slice(0, text.length - last.length).trim();
  // Inside an open quote or after `-` the last word is not a plain term: no prefix expansion.
  const quotes = (head.match(/"/g) ?? []).length;
  if (!prefixLast || !TYPED_WORD.test(last) || quotes % 2 === 1) {
    return sql`websearch_to_tsquery('simple', ${text})`;
  }
  const prefix = sql`to_tsquery('simple', ${`${last.toLowerCase()}:*`})`;
  if (!head) return prefix;
  // "cats or dog": websearch's `or` joins the prefix term rather than being a word itself.
  const orMatch = /^(.*\S)\s+or$/i.exec(head);
  if (orMatch?.[1]) return sql`(websearch_to_tsquery('simple', ${orMatch[1]}) || ${prefix})`;
  return sql`(websearch_to_tsquery('simple', ${head}) && ${prefix})`;
}

/** An operator of Gmail's search syntax that the box understood (anything else is plain words). */
export type SearchOperator =
  | { field: "from" | "to" | "cc" | "subject" | "filename"; value: string }
  | { field: "has"; value: "attachment" }
  | { field: "is"; value: "unread" | "read" | "starred" }
  | { field: "in"; value: "inbox" | "archive" }
  /** A calendar day, UTC midnight: before: is exclusive, after: inclusive, as Gmail has them. */
  | { field: "before" | "after"; value: Date }
  | { field: "newer_than" | "older_than"; value: { amount: number; unit: "d" | "m" | "y" } };

export interface ParsedSearch {
  /** The operators, each possibly negated by a leading `-`, in the order typed. */
  operators: Array<SearchOperator & { negated: boolean }>;
  /** Everything else, as typed (words, "phrases", -words, unknown or bad operators), for websearch. */
  text: string;
  /** The query ends with a plain word: it may still be being typed, so it matches as a prefix. */
  typingWord: boolean;
}

const HAS_WORD = /[\p{L}\p{N}]/u;
const ISO_DAY = /^(\d{4})[/-](\d{1,2})[/-](\d{1,2})$/;
const US_DAY = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
const AGE = /^(\d{1,6})([dmy])$/;
const YEAR_ONE = Date.parse("0001-01-01T00:00:00Z");

function isSpace(ch: string): boolean {
  return (
    ch === " " || ch === "\t" || ch === "\n" || ch === "\r" || ch === "\f" || ch === "\v" || ch === "\u00a0"
  );
}

function isNameChar(ch: string): boolean {
  return (ch >= "a" && ch <= "z") || (ch >= "A" && ch <= "Z") || ch === "_";
}

/** A real calendar day, or null ("2026/02/30" is not one). */
function utcDay(year: number, month: number, day: number): Date | null {
  const at = new Date(Date.UTC(year, month - 1, day));
  if (at.getUTCFullYear() !== year || at.getUTCMonth() !== month - 1 || at.getUTCDate() !== day) return null;
  return at;
}

function parseDay(value: string): Date | null {
  const iso = ISO_DAY.exec(value);
  if (iso) return utcDay(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const us = US_DAY.exec(value);
  if (us) return utcDay(Number(us[3]), Number(us[1]), Number(us[2]));
  return null;
}

/** The operator `name:value` stands for, or null when Gmail would read it as plain words. */
function operator(name: string, value: string): SearchOperator | null {
  const lower = value.toLowerCase();
  switch (name) {
    case "from":
    case "to":
    case "cc":
    case "subject":
    case "filename":
      return HAS_WORD.test(value) ? { field: name, value } : null;
    case "has":
      return lower === "attachment" ? { field: "has", value: "attachment" } : null;
    case "is":
      return lower === "unread" || lower === "read" || lower === "starred"
        ? { field: "is", value: lower }
        : null;
    case "in":
      return lower === "inbox" || lower === "archive" ? { field: "in", value: lower } : null;
    case "before":
    case "after": {
      const day = parseDay(value);
      return day ? { field: name, value: day } : null;
    }
    case "newer_than":
    case "older_than": {
      const age = AGE.exec(lower);
      if (!age) return null;
      return { field: name, value: { amount: Number(age[1]), unit: age[2] as "d" | "m" | "y" } };
    }
    default:
      return null;
  }
}

/**
 * Splits the search box's text into Gmail operators and plain text in one pass over it (the
 * input is at most 200 characters, and each character is looked at a bounded number of times:
 * no backtracking). A token is `-`? then a "quoted phrase", an `operator:value` (the value
 * possibly "quoted"), or a run of non-space characters. An operator Gmail would not understand
 * (unknown name, bad value) stays in the plain text, as Gmail searches it: never an error.
 */
export function parseSearch(q: string): ParsedSearch {
  const operators: ParsedSearch["operators"] = [];
  const plain: string[] = [];
  let typingWord = false;
  const n = q.length;
  let i = 0;
  while (i < n) {
    if (isSpace(q.charAt(i))) {
      i++;
      continue;
    }
    const start = i;
    const negated = q.charAt(i) === "-" && i + 1 < n && !isSpace(q.charAt(i + 1));
    let j = negated ? i + 1 : i;
    if (q.charAt(j) === '"') {
      const close = q.indexOf('"', j + 1);
      i = close === -1 ? n : close + 1;
      plain.push(q.slice(start, i));
      typingWord = false;
      continue;
    }
    while (j < n && isNameChar(q.charAt(j))) j++;
    const nameEnd = j;
    if (nameEnd > start + (negated ? 1 : 0) && q.charAt(nameEnd) === ":") {
      let value: string;
      if (q.charAt(nameEnd + 1) === '"') {
        const close = q.indexOf('"', nameEnd + 2);
        i = close === -1 ? n : close + 1;
        value = q.slice(nameEnd + 2, close === -1 ? n : close);
      } else {
        i = nameEnd + 1;
        while (i < n && !isSpace(q.charAt(i))) i++;
        value = q.slice(nameEnd + 1, i);
      }
      const name = q.slice(start + (negated ? 1 : 0), nameEnd).toLowerCase();
      const op = operator(name, value.trim());
      if (op) {
        operators.push({ ...op, negated });
        typingWord = false;
        continue;
      }
      plain.push(q.slice(start, i));
      typingWord = false;
      continue;
    }
    while (i < n && !isSpace(q.charAt(i))) i++;
    plain.push(q.slice(start, i));
    typingWord = !negated;
  }
  return { operators, text: plain.join(" "), typingWord };
}

/**
 * A to_tsquery operand matching `value`'s words in order, in the fields of one weight: quoted,
 * so the text parser splits it as it split the stored text, and the words of a multi-word value
 * must be adjacent ("Q3 Budget" -> 'q3':D <-> 'budget':D).
 */
function weightedPhrase(value: string, weight: "A" | "B" | "C" | "D"): string {
  return `'${value.replaceAll("\\", "\\\\").replaceAll("'", "''")}':${weight}`;
}

/** The characters the stored address and file-name fields split words at (see schema.ts). */
function splitLikeStored(value: string): string {
  let out = "";
  for (const ch of value) out += SEARCH_FIELD_SEPARATORS.includes(ch) ? " " : ch;
  return out;
}

/** `amount` days, months or years before `now`, never before year 1 (PostgreSQL's and ISO's floor). */
function ageCutoff(now: Date, amount: number, unit: "d" | "m" | "y"): Date {
  const at = new Date(now.getTime());
  if (unit === "d") at.setUTCDate(at.getUTCDate() - amount);
  else if (unit === "m") at.setUTCMonth(at.getUTCMonth() - amount);
  else at.setUTCFullYear(at.getUTCFullYear() - amount);
  return Number.isNaN(at.getTime()) || at.getTime() < YEAR_ONE ? new Date(YEAR_ONE) : at;
}

function stamp(at: Date): SQL {
  return sql`${at.toISOString()}::timestamptz`;
}

/** The columns a search reads: the emails table, or an alias of it (the conversation probe). */
export type SearchColumns = Record<
  "searchFields" | "search" | "hasAttachments" | "isStarred" | "isRead" | "inInbox" | "receivedAt",
  AnyPgColumn
>;

function operatorCondition(op: SearchOperator, now: Date, emails: SearchColumns): SQL {
  switch (op.field) {
    case "from":
      return sql`${emails.searchFields} @@ to_tsquery('simple', ${weightedPhrase(splitLikeStored(op.value), "A")})`;
    case "to":
      return sql`${emails.searchFields} @@ to_tsquery('simple', ${weightedPhrase(splitLikeStored(op.value), "B")})`;
    case "cc":
      return sql`${emails.searchFields} @@ to_tsquery('simple', ${weightedPhrase(splitLikeStored(op.value), "C")})`;
    case "filename":
      return sql`${emails.searchFields} @@ to_tsquery('simple', ${weightedPhrase(splitLikeStored(op.value), "D")})`;
    // The subject is the search vector's weight A, split as plain words are (decision 0062).
    case "subject":
      return sql`${emails.search} @@ to_tsquery('simple', ${weightedPhrase(op.value, "A")})`;
    case "has":
      return sql`${emails.hasAttachments}`;
    case "is":
      if (op.value === "starred") return sql`${emails.isStarred}`;
      return op.value === "read" ? sql`${emails.isRead}` : sql`not ${emails.isRead}`;
    case "in":
      return op.value === "inbox" ? sql`${emails.inInbox}` : sql`not ${emails.inInbox}`;
    case "before":
      return sql`${emails.receivedAt} < ${stamp(op.value)}`;
    case "after":
      return sql`${emails.receivedAt} >= ${stamp(op.value)}`;
    case "newer_than":
      return sql`${emails.receivedAt} > ${stamp(ageCutoff(now, op.value.amount, op.value.unit))}`;
    case "older_than":
      return sql`${emails.receivedAt} < ${stamp(ageCutoff(now, op.value.amount, op.value.unit))}`;
  }
}

/** What a search adds to the list query. */
export interface SearchFilter {
  /** Every operator and the plain words' tsquery, ANDed. */
  where: SQL;
  /** An `in:` operator names where to look, so the list must not limit itself to the inbox. */
  includesArchived: boolean;
}

/**
 * The search box's text as a condition on emails: Gmail's operators (from:, to:, cc:, subject:,
 * has:attachment, filename:, is:, in:, before:, after:, newer_than:, older_than:, each negatable
 * with `-`) ANDed with the plain words' full-text match. `now` anchors newer_than/older_than.
 * Null when the text is blank.
 */
export function searchFilter(q: string, now: Date, t: SearchColumns = emails): SearchFilter | null {
  const parsed = parseSearch(q);
  const conditions: SQL[] = parsed.operators.map((op) => {
    const condition = operatorCondition(op, now, t);
    return op.negated ? sql`not (${condition})` : condition;
  });
  const words = searchTsQuery(parsed.text, parsed.typingWord);
  if (words) conditions.push(sql`${t.search} @@ ${words}`);
  const where = and(...conditions);
  if (!where) return null;
  return { where, includesArchived: parsed.operators.some((op) => op.field === "in") };
}
