import { Parser } from "htmlparser2";
import { DomainError } from "../http/errors.ts";

/**
 * The HTML of mail a person writes (issue 36, rich text), cut down to an allow-list before it is
 * sent. The editor only makes these elements, but the request is the client's to forge: what
 * leaves in the person's name is what the compose dialog could have made, never script, styles,
 * event handlers or javascript: links.
 *
 * The reader's sanitizer (web/src/features/mail-html/sanitize.ts) is DOMPurify on the browser's
 * DOM, which the server does not have; this is one streaming pass of htmlparser2, the parser the
 * server already reads mail with (server/providers/body-text.ts), that builds no tree and writes
 * every kept tag itself, so nothing the sender wrote is copied through unparsed.
 */

/** Elements kept (attributes dropped, except a's href): the editor's marks and blocks, and what signatures use. */
const ALLOWED = new Set([
  "p",
  "div",
  "br",
  "span",
  "strong",
  "b",
  "em",
  "i",
  "u",
  "s",
  "a",
  "ul",
  "ol",
  "li",
  "blockquote",
  "h1",
  "h2",
  "h3",
]);
const VOID = new Set(["br"]);
/** Elements whose content is not text the person wrote: dropped whole, content included. */
const DROPPED_WITH_CONTENT = new Set([
  "script",
  "style",
  "head",
  "title",
  "noscript",
  "template",
  "iframe",
  "object",
  "embed",
  "svg",
  "math",
  "textarea",
  "select",
]);
const LINK_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);
/**
 * Deeper nesting than this is refused. The editor nests a list or quote a few levels; htmlparser2's
 * open-element stack costs time quadratic in the depth, so unbounded nesting would cost seconds.
 */
export const OUTGOING_HTML_MAX_DEPTH = 32;
const HREF_MAX = 2048;

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };
const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => ESCAPES[c] ?? c);

/** The href kept on a link: an absolute http(s) or mailto URL as the URL parser reads it, else none. */
export function safeHref(value: string | undefined): string | null {
  if (value === undefined || value.length > HREF_MAX) return null;
  let url: URL;
  try {
    // No base: a relative reference has no meaning in someone else's mailbox.
    url = new URL(value.trim());
  } catch {
    return null;
  }
  return LINK_PROTOCOLS.has(url.protocol) ? url.href : null;
}

/**
 * The allow-listed HTML of `html`: kept elements without attributes (a keeps a safe href, and
 * opens in a new tab), text escaped, comments, doctype, processing instructions and dropped
 * elements' content gone. Throws validation_failed when it nests deeper than the editor could.
 */
export function sanitizeOutgoingHtml(html: string): string {
  const out: string[] = [];
  /** Open elements as written: the kept name, or null for a dropped tag whose text is kept. */
  const open: (string | null)[] = [];
  let droppedDepth = 0;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (!VOID.has(name) && open.length + droppedDepth >= OUTGOING_HTML_MAX_DEPTH) {
          throw new DomainError("validation_failed", "The message is formatted too deeply to send.", {
            html: "Too deeply nested",
          });
        }
        if (droppedDepth > 0 || DROPPED_WITH_CONTENT.has(name)) {
          droppedDepth += 1;
          return;
        }
        if (VOID.has(name)) {
          if (ALLOWED.has(name)) out.push(`<${name}>`);
          return;
        }
        if (!ALLOWED.has(name)) {
          open.push(null);
          return;
        }
        open.push(name);
        if (name === "a") {
          const href = safeHref(attributes.href);
          out.push(
            href === null
              ? "<a>"
              : `<a href="${escapeHtml(href)}" target="_blank" rel="noopener noreferrer">`,
          );
        } else out.push(`<${name}>`);
      },
      onclosetag(name) {
        if (droppedDepth > 0) {
          droppedDepth -= 1;
          return;
        }
        if (VOID.has(name)) return;
        // htmlparser2 reports every open element closed, implied and end-of-input ones included,
        // innermost first, so this pops the matching entry.
        const kept = open.pop();
        if (kept) out.push(`</${kept}>`);
      },
      ontext(text) {
        if (droppedDepth === 0) out.push(escapeHtml(text));
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: false },
  );
  parser.end(html);
  return out.join("");
}
