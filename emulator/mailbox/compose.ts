import { createHash, randomBytes } from "node:crypto";
import { type Address, encodeWord, formatAddress } from "./headers.ts";

export interface ComposeInput {
  from: Address;
  to: readonly Address[];
  cc?: readonly Address[];
  bcc?: readonly Address[];
  subject: string;
  text?: string | undefined;
  html?: string | undefined;
  date: number;
  messageId?: string;
  inReplyTo?: string | undefined;
  references?: string | undefined;
  extraHeaders?: readonly (readonly [string, string])[];
  /** Files: the message becomes multipart/mixed of its body and one base64 part per file. */
  attachments?: readonly { name: string; contentType: string; bytes: Buffer }[];
}

/** A MIME parameter: quoted when plain ASCII, RFC 2231 UTF-8 percent-encoding otherwise. */
function parameter(name: string, value: string): string {
  if (/^[\x20-\x7e]*$/.test(value) && !/["\\]/.test(value)) return `${name}="${value}"`;
  return `${name}*=UTF-8''${encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

/** Wraps a composed message's body in multipart/mixed with its files. */
function withFiles(
  message: string,
  files: NonNullable<ComposeInput["attachments"]>,
  messageId: string,
): string {
  const end = message.indexOf("\r\n\r\n");
  const head = message.slice(0, end).split("\r\n");
  const body = message.slice(end + 4);
  const isContent = (line: string) => /^content-(type|transfer-encoding):/i.test(line);
  const boundary = `=_mix_${createHash("sha1").update(`mixed${messageId}`).digest("hex").slice(0, 16)}`;
  const parts = files.map((file) => {
    const encoded = file.bytes.toString("base64").replace(/.{76}/g, "$&\r\n");
    return `--${boundary}\r\nContent-Type: ${file.contentType}; ${parameter("name", file.name)}\r\nContent-Disposition: attachment; ${parameter("filename", file.name)}\r\nContent-Transfer-Encoding: base64\r\n\r\n${encoded}\r\n`;
  });
  return `${[...head.filter((l) => !isContent(l)), `Content-Type: multipart/mixed; boundary="${boundary}"`].join("\r\n")}\r\n\r\n--${boundary}\r\n${head.filter(isContent).join("\r\n")}\r\n\r\n${body}\r\n${parts.join("")}--${boundary}--\r\n`;
}

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const pad = (n: number) => String(n).padStart(2, "0");

/** RFC 5322 date in UTC, e.g. `Tue, 21 Nov 2026 10:00:00 +0000`. */
export function rfc2822Date(ms: number): string {
  const d = new Date(ms);
  return `${DAYS[d.getUTCDay()]}, ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${pad(
    d.getUTCHours(),
  )}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000`;
}

export function newMessageId(domain: string): string {
  return `<${randomBytes(12).toString("hex")}@${domain}>`;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII range check
const isAscii = (text: string) => /^[\x00-\x7f]*$/.test(text);

function textPart(type: "plain" | "html", content: string): string {
  const normalized = content.replace(/\r?\n/g, "\r\n");
  if (isAscii(normalized) && !normalized.split("\r\n").some((line) => line.length > 900)) {
    return `Content-Type: text/${type}; charset="UTF-8"\r\nContent-Transfer-Encoding: 7bit\r\n\r\n${normalized}`;
  }
  const encoded = Buffer.from(normalized, "utf8").toString("base64").replace(/.{76}/g, "$&\r\n");
  return `Content-Type: text/${type}; charset="UTF-8"\r\nContent-Transfer-Encoding: base64\r\n\r\n${encoded}`;
}

/** Builds an RFC 822 message with text, HTML or both (multipart/alternative). */
export function composeMessage(input: ComposeInput): string {
  if (input.attachments !== undefined && input.attachments.length > 0) {
    const messageId = input.messageId ?? newMessageId(input.from.address.split("@")[1] ?? "localhost");
    return withFiles(composeMessage({ ...input, messageId, attachments: [] }), input.attachments, messageId);
  }
  const domain = input.from.address.split("@")[1] ?? "localhost";
  const headers: string[] = [
    `From: ${formatAddress(input.from)}`,
    `To: ${input.to.map(formatAddress).join(", ")}`,
  ];
  if (input.cc !== undefined && input.cc.length > 0)
    headers.push(`Cc: ${input.cc.map(formatAddress).join(", ")}`);
  if (input.bcc !== undefined && input.bcc.length > 0)
    headers.push(`Bcc: ${input.bcc.map(formatAddress).join(", ")}`);
  headers.push(`Subject: ${encodeWord(input.subject)}`);
  headers.push(`Date: ${rfc2822Date(input.date)}`);
  const messageId = input.messageId ?? newMessageId(domain);
  headers.push(`Message-ID: ${messageId}`);
  if (input.inReplyTo !== undefined) headers.push(`In-Reply-To: ${input.inReplyTo}`);
  if (input.references !== undefined) headers.push(`References: ${input.references}`);
  for (const [name, value] of input.extraHeaders ?? []) headers.push(`${name}: ${value}`);
  headers.push("MIME-Version: 1.0");
  const text = input.text;
  const html = input.html;
  if (html !== undefined && text !== undefined) {
    // Derived, not random: generated messages are rebuilt on every read and must not change.
    const boundary = `=_alt_${createHash("sha1").update(messageId).digest("hex").slice(0, 16)}`;
    headers.push(`Content-Type: multipart/alternative; boundary="${boundary}"`);
    const body = `--${boundary}\r\n${textPart("plain", text)}\r\n--${boundary}\r\n${textPart("html", html)}\r\n--${boundary}--\r\n`;
    return `${headers.join("\r\n")}\r\n\r\n${body}`;
  }
  return `${headers.join("\r\n")}\r\n${textPart(html !== undefined ? "html" : "plain", html ?? text ?? "")}\r\n`;
}
