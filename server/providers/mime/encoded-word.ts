import { singleLine } from "./header-safety.ts";

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** UTF-8 bytes per encoded word: 45 bytes -> 60 base64 chars + 12 of `=?UTF-8?B??=` stays under 75 (RFC 2047). */
const BYTES_PER_WORD = 45;

/** Splits text into chunks of at most `max` UTF-8 bytes without cutting a character in two. */
function utf8Chunks(text: string, max: number): string[] {
  const chunks: string[] = [];
  let current = "";
  let size = 0;
  for (const char of text) {
    const bytes = Buffer.byteLength(char, "utf8");
    if (size + bytes > max && current !== "") {
      chunks.push(current);
      current = "";
      size = 0;
    }
    current += char;
    size += bytes;
  }
  if (current !== "") chunks.push(current);
  return chunks;
}

/**
 * An unstructured header value (Subject, display names) as RFC 2047 encoded words when it is not
 * plain printable ASCII or could be mistaken for an encoded word; folded between words so no
 * line exceeds 78 characters. Line breaks in the input are removed first.
 */
export function encodeHeaderText(value: string): string {
  const text = singleLine(value);
  if (PRINTABLE_ASCII.test(text) && !text.includes("=?") && text.length <= 900) return text;
  return utf8Chunks(text, BYTES_PER_WORD)
    .map((chunk) => `=?UTF-8?B?${Buffer.from(chunk, "utf8").toString("base64")}?=`)
    .join("\r\n ");
}
