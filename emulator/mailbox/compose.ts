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
