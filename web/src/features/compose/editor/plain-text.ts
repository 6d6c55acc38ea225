import type { JSONContent } from "@tiptap/react";

/**
 * The editor's document and plain text (issue 36, rich text). One paragraph is one line, as in a
 * textarea, so text put into the editor (a reply's quoted original, an AI suggestion) reads back
 * the same, and the text/plain part of a sent mail keeps the person's line breaks.
 */

/** The document for `text`: one paragraph per line (an empty paragraph for an empty line). */
export function docFromPlainText(text: string): JSONContent {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  return {
    type: "doc",
    content: lines.map((line) => ({
      type: "paragraph",
      ...(line === "" ? {} : { content: [{ type: "text", text: line }] }),
    })),
  };
}

function inlineText(node: JSONContent): string {
  if (node.type === "hardBreak") return "\n";
  if (node.type !== "text") return (node.content ?? []).map(inlineText).join("");
  const text = node.text ?? "";
  const link = node.marks?.find((mark) => mark.type === "link");
  const href = typeof link?.attrs?.href === "string" ? link.attrs.href : "";
  // The way mail clients write a link as text: its words, then the address unless they are it.
  if (href === "" || href === text || href === `mailto:${text}`) return text;
  return `${text} <${href}>`;
}

/** Prefixes the first line with `first` and the others with `rest` (list markers, quote marks). */
function prefixed(lines: string[], first: string, rest: string): string[] {
  return lines.map((line, i) => `${i === 0 ? first : rest}${line}`);
}

function blockLines(node: JSONContent): string[] {
  const children = node.content ?? [];
  switch (node.type) {
    case "paragraph":
      return children.map(inlineText).join("").split("\n");
    case "bulletList":
      return children.flatMap((item) => prefixed(blocksLines(item.content ?? []), "- ", "  "));
    case "orderedList": {
      const start = typeof node.attrs?.start === "number" ? node.attrs.start : 1;
      return children.flatMap((item, i) => {
        const marker = `${start + i}. `;
        return prefixed(blocksLines(item.content ?? []), marker, " ".repeat(marker.length));
      });
    }
    case "blockquote":
      return blocksLines(children).map((line) => (line === "" ? ">" : `> ${line}`));
    case "signature": {
      // HTML parsing drops a line's trailing space; the text part keeps the "-- " delimiter mail clients know.
      const lines = blocksLines(children);
      return lines[0] === "--" ? ["-- ", ...lines.slice(1)] : lines;
    }
    default:
      return blocksLines(children);
  }
}

function blocksLines(nodes: JSONContent[]): string[] {
  return nodes.flatMap(blockLines);
}

/**
 * The plain text of a document: lines as written, links as `words <address>`, list items with
 * `- ` or `1. `, quoted lines with `> `. The compose form's `body`: what AI Suggest and Improve
 * read, what the spec's validation checks, and the text/plain alternative of a rich mail.
 */
export function plainTextOf(doc: JSONContent): string {
  const lines = blocksLines(doc.content ?? []);
  // An empty editor is one empty paragraph: no text at all.
  return lines.length === 1 && lines[0] === "" ? "" : lines.join("\n");
}

/**
 * True when the document has anything plain text cannot carry: marks, links, lists or quotes, or
 * the account signature (its HTML is sent as set, and its mark lets From swap it in place).
 */
export function hasFormatting(node: JSONContent): boolean {
  if ((node.marks ?? []).length > 0) return true;
  const blocks = ["bulletList", "orderedList", "blockquote", "signature"];
  if (blocks.includes(node.type ?? "")) return true;
  return (node.content ?? []).some(hasFormatting);
}

/**
 * The HTML that is sent: the editor's, with empty lines given a <br> (an empty block has no
 * height in a mail reader, so the blank line would vanish).
 */
export function outgoingHtml(editorHtml: string): string {
  return editorHtml.replaceAll("<div></div>", "<div><br></div>");
}

/** HTML given back to the editor (a held mail, a swapped signature): outgoingHtml undone, so a blank line stays one line. */
export function editorHtmlOf(html: string): string {
  return html.replaceAll("<div><br></div>", "<div></div>");
}
