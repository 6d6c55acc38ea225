import { Parser } from "htmlparser2";

/**
 * An allowlist sanitizer for signatures the person writes (HTML from a contentEditable): basic
 * formatting and links survive, everything else is dropped (its text kept, except inside script,
 * style and similar, which go whole). One streaming pass of htmlparser2 with no regex over the
 * input, so its cost is linear in the (already capped) length.
 */
const KEEP = new Set([
  "b",
  "strong",
  "i",
  "em",
  "u",
  "s",
  "a",
  "br",
  "p",
  "div",
  "span",
  "ul",
  "ol",
  "li",
  "blockquote",
]);
const VOID = new Set(["br"]);
const DROP_WITH_CONTENT = new Set([
  "script",
  "style",
  "template",
  "iframe",
  "object",
  "embed",
  "noscript",
  "title",
  "head",
  "svg",
  "math",
  "textarea",
  "select",
]);
const MAX_DEPTH = 32;

function escapeText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function escapeAttribute(value: string): string {
  return escapeText(value).replace(/"/g, "&quot;");
}

/** http(s) and mailto links only; anything else (javascript:, data:, relative) loses its href. */
function safeHref(href: string): string | null {
  try {
    const url = new URL(href.trim());
    return ["http:", "https:", "mailto:"].includes(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

/** htmlparser2 pairs every open event with a close event (implied ones too), so a stack mirrors it. */
export function sanitizeSignatureHtml(html: string): string {
  let out = "";
  let dropping = 0;
  let depth = 0;
  const stack: (string | null)[] = [];
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (dropping > 0 || DROP_WITH_CONTENT.has(name)) {
          dropping += 1;
          return;
        }
        const kept = KEEP.has(name) && depth < MAX_DEPTH ? name : null;
        stack.push(kept);
        if (kept === null) return;
        depth += 1;
        if (name === "a") {
          const href = attributes.href === undefined ? null : safeHref(attributes.href);
          out += href ? `<a href="${escapeAttribute(href)}" rel="noopener noreferrer">` : "<a>";
        } else out += `<${name}>`;
      },
      ontext(text) {
        if (dropping === 0) out += escapeText(text);
      },
      onclosetag() {
        if (dropping > 0) {
          dropping -= 1;
          return;
        }
        const kept = stack.pop();
        if (kept === null || kept === undefined) return;
        depth -= 1;
        if (!VOID.has(kept)) out += `</${kept}>`;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  return out;
}
