import { compile } from "html-to-text";
import { Parser } from "htmlparser2";

/**
 * The most characters of one body (text or HTML) we store, for every provider. Real mail bodies
 * are far smaller; this bounds what a hostile or broken message can put in a row and in memory.
 */
export const MAX_BODY_CHARS = 1_000_000;

/**
 * Body parts bigger than this are not downloaded at all (Gmail serves big parts through
 * attachments.get). UTF-8 needs at most 4 bytes a character, so any part that could still fill
 * MAX_BODY_CHARS is fetched; a bigger one would only be thrown away after a costly download.
 */
export const MAX_BODY_PART_BYTES = 4 * MAX_BODY_CHARS;

/** Cuts a body to MAX_BODY_CHARS without splitting a surrogate pair. */
export function capBody(text: string): string;
export function capBody(text: string | null): string | null;
export function capBody(text: string | null): string | null {
  if (text === null || text.length <= MAX_BODY_CHARS) return text;
  const end = /[\uD800-\uDBFF]/.test(text.charAt(MAX_BODY_CHARS - 1)) ? MAX_BODY_CHARS - 1 : MAX_BODY_CHARS;
  return text.slice(0, end);
}

/**
 * Elements nested deeper than this are not converted. Real mail stays far below it (browsers'
 * parsers stop nesting at 512 too); htmlparser2's open-element stack costs time quadratic in the
 * depth, and html-to-text walks the tree recursively, so 1 MB of `<div>` would take many seconds
 * or overflow the stack.
 */
const MAX_NESTING = 512;

/**
 * Where the HTML first nests deeper than MAX_NESTING, or undefined. One streaming pass of the
 * same parser html-to-text uses (no tree is built), so its idea of nesting, implied end tags,
 * comments and raw-text elements included, is exactly the converter's.
 */
function tooDeepAt(html: string): number | undefined {
  let depth = 0;
  let cut: number | undefined;
  const parser: Parser = new Parser({
    onopentag() {
      depth += 1;
      if (depth > MAX_NESTING && cut === undefined) {
        cut = parser.startIndex;
        parser.pause();
      }
    },
    onclosetag() {
      depth -= 1;
    },
  });
  parser.write(html);
  if (cut === undefined) parser.end();
  return cut;
}

// Compiled once: html-to-text otherwise builds its selector tree on every call (about 3x slower).
const toText = compile({
  // Stored unwrapped: whoever shows or analyses the text wraps it to their own width.
  wordwrap: false,
  selectors: [
    // Links stay readable as `text [url]`, without repeating a url that is its own text.
    { selector: "a", options: { hideLinkHrefIfSameAsText: true, noAnchorUrl: true } },
    // Images would only add tracking-pixel and CDN urls.
    { selector: "img", format: "skip" },
    ...["h1", "h2", "h3", "h4", "h5", "h6"].map((selector) => ({
      selector,
      options: { uppercase: false },
    })),
  ],
});

/**
 * Plain text of an HTML body (Graph returns most mail only as HTML), capped like every body.
 * The HTML is cut to the same cap first (its text is never longer), and before any point where
 * it nests absurdly deep.
 */
export function textFromHtml(html: string): string {
  const bounded = capBody(html);
  const cut = tooDeepAt(bounded);
  return capBody(toText(cut === undefined ? bounded : bounded.slice(0, cut)).trim());
}
