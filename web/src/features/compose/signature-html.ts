import type { AccountSignature } from "../../../../contract/signatures.ts";
import { signatureBlock, withSignature } from "./compose-source.ts";
import { FORWARDED_MESSAGE_SEPARATOR } from "./forward.ts";
import { ORIGINAL_MESSAGE_SEPARATOR } from "./reply.ts";

/**
 * The account signature in the Message as rich text (issue 36): its sanitized HTML goes into the
 * editor inside one marked block, so the sent HTML part carries its formatting and the From select
 * can swap it where it stands; the text part carries its text form.
 */

export type Signature = Pick<AccountSignature, "html" | "text">;

/** The Message as the compose state holds it: its text, and its HTML once it has any. */
export interface MessageContent {
  body: string;
  html?: string | undefined;
}

/** The editor keeps the signature's block under this attribute (extensions.ts); the server drops it. */
export const SIGNATURE_MARK = "data-signature";
const OPEN = `<div ${SIGNATURE_MARK}`;

function escapeText(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

/** Text as the editor's lines: one <div> a line, an empty one for a blank line. */
export function linesHtml(text: string): string {
  return text
    .split("\n")
    .map((line) => `<div>${escapeText(line)}</div>`)
    .join("");
}

/** The signature's block: the usual "-- " line, then its HTML. */
export function signatureElement(signature: Signature): string {
  return `${OPEN}=""><div>-- </div>${signature.html}</div>`;
}

/** Where the marked block starts and ends in `html`, counting nested divs; null when absent. */
function signatureRange(html: string): { start: number; end: number } | null {
  const start = html.indexOf(OPEN);
  if (start < 0) return null;
  let depth = 0;
  let at = start;
  // The editor's HTML (and signatureElement's) is well formed, so div tags pair up; text is escaped.
  while (at < html.length) {
    const open = html.indexOf("<div", at);
    const close = html.indexOf("</div>", at);
    if (close < 0) return null;
    if (open >= 0 && open < close) {
      depth++;
      at = open + 4;
    } else {
      depth--;
      at = close + "</div>".length;
      if (depth === 0) return { start, end: at };
    }
  }
  return null;
}

function hasSignature(signature: Signature | null): signature is Signature {
  return signature !== null && (signature.text.trim() !== "" || signature.html.trim() !== "");
}

/** The HTML with `next` in place of the marked block, else above the quoted text, else at the end. */
function swappedHtml(html: string, next: Signature | null): string {
  const replacement = hasSignature(next) ? signatureElement(next) : "";
  const range = signatureRange(html);
  if (range) return html.slice(0, range.start) + replacement + html.slice(range.end);
  if (!replacement) return html;
  const quoted = [ORIGINAL_MESSAGE_SEPARATOR, FORWARDED_MESSAGE_SEPARATOR]
    .map((separator) => html.indexOf(`<div>${escapeText(separator)}</div>`))
    .filter((index) => index >= 0);
  if (quoted.length > 0) {
    const at = Math.min(...quoted);
    return `${html.slice(0, at)}${replacement}<div></div>${html.slice(at)}`;
  }
  return `${html}<div></div>${replacement}`;
}

/**
 * The Message with `next` account's signature in place of `previous`'s (the signature arrived, or
 * From changed): the text as `withSignature` writes it, and the HTML with the signature's own
 * formatting, built from the text lines while the message had none.
 */
export function withSignatureContent(
  message: MessageContent,
  previous: Signature | null,
  next: Signature | null,
): MessageContent {
  const body = withSignature(message.body, previous?.text ?? "", next?.text ?? "");
  if (message.html !== undefined) return { body, html: swappedHtml(message.html, next) };
  if (!hasSignature(next)) return { body, html: undefined };
  const block = signatureBlock(next.text);
  const at = body.indexOf(block);
  if (at < 0) return { body, html: swappedHtml(linesHtml(body), next) };
  // withSignature leaves the block on lines of its own: the newline before and after it are the breaks.
  const before = body.slice(0, at).replace(/\n$/, "");
  const after = body.slice(at + block.length).replace(/^\n/, "");
  const html =
    (at > 0 ? linesHtml(before) : "") + signatureElement(next) + (after !== "" ? linesHtml(after) : "");
  return { body, html };
}
