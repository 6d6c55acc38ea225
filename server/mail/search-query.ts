import { type SQL, sql } from "drizzle-orm";

// A word still being typed: letters and digits only, so it can go into to_tsquery's syntax
// without quoting (anything else falls back to websearch_to_tsquery alone).
const TYPED_WORD = /^[\p{L}\p{N}_]+$/u;

/**
 * The tsquery for the search box: the user's words through websearch_to_tsquery (quotes, `or`,
 * `-word`), with the last word also matched as a prefix so results appear while typing ("proj"
 * finds "project"). 'simple' config: no stemming or stop words, mail is multilingual.
 */
export function searchTsQuery(q: string): SQL | null {
  const text = q.trim();
  if (!text) return null;
  const match = /(^|\s)([^\s]+)$/.exec(text);
  const last = match?.[2] ?? "";
  const head = text.slice(0, text.length - last.length).trim();
  // Inside an open quote or after `-` the last word is not a plain term: no prefix expansion.
  const quotes = (head.match(/"/g) ?? []).length;
  if (!TYPED_WORD.test(last) || quotes % 2 === 1) {
    return sql`websearch_to_tsquery('simple', ${text})`;
  }
  const prefix = sql`to_tsquery('simple', ${`${last.toLowerCase()}:*`})`;
  if (!head) return prefix;
  // "cats or dog": websearch's `or` joins the prefix term rather than being a word itself.
  const orMatch = /^(.*\S)\s+or$/i.exec(head);
  if (orMatch?.[1]) return sql`(websearch_to_tsquery('simple', ${orMatch[1]}) || ${prefix})`;
  return sql`(websearch_to_tsquery('simple', ${head}) && ${prefix})`;
}
