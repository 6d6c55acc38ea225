import { randomBytes } from "node:crypto";
import type { OutgoingAttachment } from "../mail-provider.ts";

/**
 * Attachments around a message built by build.ts (issue 36): its body part, whatever it is
 * (text/plain, multipart/alternative, ...), becomes the first part of a multipart/mixed, each
 * file a base64 part after it with its name in RFC 2231 form. build.ts stays unaware of files.
 */

/** 57 bytes make one 76-character base64 line (RFC 2045 6.8). */
const LINE_BYTES = 57;
/** Characters of a parameter value per RFC 2231 continuation line. */
const SEGMENT = 60;
/** The MIME headers of the body part; the rest of the message's headers stay on top. */
const CONTENT_HEADERS = new Set(["content-type", "content-transfer-encoding", "content-disposition"]);

/** A parameter as `name="value"` when plain ASCII, else RFC 2231 `name*0*=UTF-8''...` continuations. */
export function mimeParameter(name: string, value: string): string {
  let plain = value.length <= SEGMENT;
  for (let i = 0; plain && i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code > 0x7e || code === 0x22 || code === 0x5c) plain = false;
  }
  if (plain) return `${name}="${value}"`;
  // attr-char of RFC 2231 / 5987: ALPHA DIGIT !#$&+-.^_`|~ ; everything else percent-encoded.
  const bytes = Buffer.from(value, "utf8");
  const pieces: string[] = [];
  for (const byte of bytes) {
    const ch = String.fromCharCode(byte);
    pieces.push(
      /[A-Za-z0-9!#$&+\-.^_`|~]/.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`,
    );
  }
  const segments: string[] = [];
  let current = "";
  for (const piece of pieces) {
    // A %XX triplet is never split across segments.
    if (current.length + piece.length > SEGMENT) {
      segments.push(current);
      current = "";
    }
    current += piece;
  }
  segments.push(current);
  if (segments.length === 1) return `${name}*=UTF-8''${segments[0]}`;
  return segments.map((s, i) => `${name}*${i}*=${i === 0 ? "UTF-8''" : ""}${s}`).join(";\r\n ");
}

/** Splits an RFC 822 text at its blank line; headers with their folded continuation lines. */
function split(message: string): { headers: string[]; body: string } {
  const end = message.indexOf("\r\n\r\n");
  const head = end < 0 ? message : message.slice(0, end);
  const body = end < 0 ? "" : message.slice(end + 4);
  const headers: string[] = [];
  for (const line of head.split("\r\n")) {
    const last = headers.length - 1;
    if ((line.startsWith(" ") || line.startsWith("\t")) && last >= 0) headers[last] += `\r\n${line}`;
    else headers.push(line);
  }
  return { headers, body };
}

const headerName = (line: string) =>
  line
    .slice(0, Math.max(0, line.indexOf(":")))
    .trim()
    .toLowerCase();

async function* base64Lines(stream: NodeJS.ReadableStream): AsyncGenerator<Buffer> {
  let rest = Buffer.alloc(0);
  for await (const chunk of stream) {
    const data = rest.length > 0 ? Buffer.concat([rest, chunk as Buffer]) : (chunk as Buffer);
    const whole = data.length - (data.length % LINE_BYTES);
    const lines: string[] = [];
    for (let at = 0; at < whole; at += LINE_BYTES)
      lines.push(data.subarray(at, at + LINE_BYTES).toString("base64"));
    if (lines.length > 0) yield Buffer.from(`${lines.join("\r\n")}\r\n`, "latin1");
    rest = Buffer.from(data.subarray(whole));
  }
  if (rest.length > 0) yield Buffer.from(`${rest.toString("base64")}\r\n`, "latin1");
}

function partHeaders(file: OutgoingAttachment): string {
  return [
    `Content-Type: ${file.contentType}; ${mimeParameter("name", file.fileName)}`,
    `Content-Disposition: attachment; ${mimeParameter("filename", file.fileName)}`,
    "Content-Transfer-Encoding: base64",
    "",
    "",
  ].join("\r\n");
}

/**
 * The message with its files, as chunks to stream or collect: top-level headers, the original
 * body part, then each file read from `open()` as it is encoded.
 */
export async function* withAttachments(
  message: string,
  attachments: readonly OutgoingAttachment[],
): AsyncGenerator<Buffer> {
  if (attachments.length === 0) {
    yield Buffer.from(message, "utf8");
    return;
  }
  const { headers, body } = split(message);
  const boundary = `=_mw_mixed_${randomBytes(12).toString("hex")}`;
  const top = headers.filter((h) => !CONTENT_HEADERS.has(headerName(h)) && headerName(h) !== "mime-version");
  const inner = headers.filter((h) => CONTENT_HEADERS.has(headerName(h)));
  yield Buffer.from(
    [
      ...top,
      "MIME-Version: 1.0",
      `Content-Type: multipart/mixed; boundary="${boundary}"`,
      "",
      `--${boundary}`,
      ...(inner.length > 0 ? inner : ['Content-Type: text/plain; charset="UTF-8"']),
      "",
      "",
    ].join("\r\n"),
    "utf8",
  );
  yield Buffer.from(body.endsWith("\r\n") ? body : `${body}\r\n`, "utf8");
  for (const file of attachments) {
    yield Buffer.from(`--${boundary}\r\n${partHeaders(file)}`, "utf8");
    yield* base64Lines(await file.open());
  }
  yield Buffer.from(`--${boundary}--\r\n`, "latin1");
}

/** The whole message in memory: for Gmail, whose 25 MB limit bounds it (about 35 MB encoded). */
export async function collect(chunks: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return Buffer.concat(parts);
}
