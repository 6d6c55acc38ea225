import { randomBytes } from "node:crypto";
import type { Address } from "../mail-provider.ts";
import { formatAddress } from "./addresses.ts";
import { encodeHeaderText } from "./encoded-word.ts";
import { messageIds } from "./header-safety.ts";

export interface Rfc822Input {
  from: Address;
  to: readonly Address[];
  cc: readonly Address[];
  bcc: readonly Address[];
  subject: string;
  /** Plain text; line breaks are normalised to CRLF. */
  body: string;
  inReplyTo?: string | null;
  references?: string | null;
  date?: Date;
  messageId?: string;
  /** Sanitized HTML: the message becomes multipart/alternative of the text and text/html. */
  html?: string;
  /** An iMIP part: the message becomes multipart/alternative of the text and text/calendar. */
  calendar?: { method: "REPLY"; ics: string };
}

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const pad = (n: number) => String(n).padStart(2, "0");

/** RFC 5322 date-time in UTC. */
export function rfc5322Date(date: Date): string {
  return `${DAYS[date.getUTCDay()]}, ${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()} ${pad(
    date.getUTCHours(),
  )}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} +0000`;
}

function addressHeader(name: string, list: readonly Address[]): string | undefined {
  if (list.length === 0) return undefined;
  // One address per folded line keeps long recipient lists under the 998-character limit.
  return `${name}: ${list.map(formatAddress).join(",\r\n ")}`;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: 7-bit check
const SEVEN_BIT = /^[\x09\x0d\x0a\x20-\x7e]*$/;

function encodeBody(text: string): { encoding: string; content: string } {
  const normalized = text.replace(/\r\n|\r|\n/g, "\r\n");
  if (SEVEN_BIT.test(normalized) && normalized.split("\r\n").every((line) => line.length <= 76)) {
    return { encoding: "7bit", content: normalized };
  }
  const base64 = Buffer.from(normalized, "utf8").toString("base64");
  return { encoding: "base64", content: base64.replace(/.{76}/g, "$&\r\n").replace(/\r\n$/, "") };
}

/** A MIME entity: its Content-* header lines and its encoded content (without a final CRLF). */
export interface MimeEntity {
  headers: string[];
  content: string;
}

function textEntity(subtype: "plain" | "html", text: string): MimeEntity {
  const body = encodeBody(text);
  return {
    headers: [
      `Content-Type: text/${subtype}; charset="UTF-8"`,
      `Content-Transfer-Encoding: ${body.encoding}`,
    ],
    content: body.content,
  };
}

/**
 * multipart/alternative of `parts`, simplest first (RFC 2046 5.1.4: the last is the preferred
 * form). The boundary has 96 random bits, so no part's content contains it by chance.
 */
export function buildAlternative(parts: readonly MimeEntity[]): MimeEntity {
  const boundary = `=_mw_${randomBytes(12).toString("hex")}`;
  const lines: string[] = [];
  for (const part of parts) lines.push(`--${boundary}`, ...part.headers, "", part.content);
  lines.push(`--${boundary}--`);
  return {
    headers: [`Content-Type: multipart/alternative; boundary="${boundary}"`],
    content: lines.join("\r\n"),
  };
}

/**
 * The message body as one MIME entity: text/plain alone, or multipart/alternative of the text
 * and the HTML (rich text, issue 36) or of the text and an iMIP text/calendar part. Wrapping this
 * entity (multipart/mixed with attachments) leaves the alternative intact.
 */
export function buildBodyEntity(input: Pick<Rfc822Input, "body" | "html" | "calendar">): MimeEntity {
  const text = textEntity("plain", input.body);
  if (input.calendar) {
    // RFC 6047 2.4: the calendar part is one of the alternatives, its method in the content type.
    const ics = encodeBody(input.calendar.ics);
    return buildAlternative([
      text,
      {
        headers: [
          `Content-Type: text/calendar; charset="UTF-8"; method=${input.calendar.method}`,
          `Content-Transfer-Encoding: ${ics.encoding}`,
        ],
        content: ics.content,
      },
    ]);
  }
  if (input.html !== undefined) return buildAlternative([text, textEntity("html", input.html)]);
  return text;
}

/**
 * Builds an RFC 822 message (text/plain, or with HTML or a calendar part; UTF-8) for Gmail's
 * messages.send and drafts.create.
 * Every header value from user input goes through formatAddress/encodeHeaderText, which strip
 * line breaks, so no input can add a header; ids in In-Reply-To/References must look like <...>.
 */
export function buildRfc822(input: Rfc822Input): string {
  const domain = input.from.address.split("@")[1] ?? "mailwise.invalid";
  const headers = [
    `From: ${formatAddress(input.from)}`,
    addressHeader("To", input.to),
    addressHeader("Cc", input.cc),
    // Gmail reads Bcc from the raw message to deliver, and strips it from what recipients get.
    addressHeader("Bcc", input.bcc),
    `Subject: ${encodeHeaderText(input.subject)}`,
    `Date: ${rfc5322Date(input.date ?? new Date())}`,
    `Message-ID: ${input.messageId ?? `<${randomBytes(16).toString("hex")}@${domain}>`}`,
  ].filter((line): line is string => line !== undefined);
  const inReplyTo = messageIds(input.inReplyTo)[0];
  if (inReplyTo !== undefined) {
    headers.push(`In-Reply-To: ${inReplyTo}`);
    // References = the parent's References plus the parent itself (RFC 5322 3.6.4).
    const references = [...messageIds(input.references), inReplyTo].filter(
      (id, index, all) => all.indexOf(id) === index,
    );
    headers.push(`References: ${references.join("\r\n ")}`);
  }
  const entity = buildBodyEntity(input);
  headers.push("MIME-Version: 1.0", ...entity.headers);
  return `${headers.join("\r\n")}\r\n\r\n${entity.content}\r\n`;
}
