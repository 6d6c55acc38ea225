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
 * Elements and characters of text past which HTML is not converted. html-to-text builds a tree
 * and lays out every element: on the sync's thread 100,000 table cells took 0.4 to 0.8 s and
 * 1 MB of text in one paragraph 0.1 s (issue 34). Real mail, newsletters laid out in tables
 * included, has a few thousand elements and well under this much text; Gmail itself clips a
 * message's display at 102 KB.
 */
const MAX_ELEMENTS = 10_000;
export const MAX_HTML_TEXT_CHARS = 250_000;

/** Elements whose content is never text (html-to-text skips it too). */
const NOT_TEXT = new Set(["script", "style", "head", "title", "noscript"]);

/**
 * Where the HTML should be cut before conversion: before the first point where it nests deeper
 * than MAX_NESTING or opens more than MAX_ELEMENTS elements, or where its text passes
 * MAX_HTML_TEXT_CHARS; undefined when it stays within all three. One streaming pass of the same
 * parser html-to-text uses (no tree is built), so its idea of nesting, implied end tags,
 * comments and raw-text elements included, is exactly the converter's.
 */
function cutAt(html: string): number | undefined {
  let depth = 0;
  let elements = 0;
  let text = 0;
  let hidden = 0;
  let cut: number | undefined;
  const stop = (at: number) => {
    cut = at;
    parser.pause();
  };
  const parser: Parser = new Parser({
    onopentag(name) {
      depth += 1;
      elements += 1;
      if (NOT_TEXT.has(name)) hidden += 1;
      if (cut === undefined && (depth > MAX_NESTING || elements > MAX_ELEMENTS)) stop(parser.startIndex);
    },
    onclosetag(name) {
      depth -= 1;
      if (NOT_TEXT.has(name)) hidden = Math.max(0, hidden - 1);
    },
    ontext(data) {
      if (hidden > 0 || cut !== undefined) return;
      // Entities make the raw text longer than `data`: cutting the raw text at the budget keeps
      // at most that many characters.
      if (text + data.length > MAX_HTML_TEXT_CHARS) stop(parser.startIndex + (MAX_HTML_TEXT_CHARS - text));
      text += data.length;
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
 * it nests absurdly deep, has absurdly many elements or more text than MAX_HTML_TEXT_CHARS.
 */
export function textFromHtml(html: string): string {
  const bounded = capBody(html);
  const cut = cutAt(bounded);
  return capBody(toText(cut === undefined ? bounded : bounded.slice(0, cut)).trim());
}
