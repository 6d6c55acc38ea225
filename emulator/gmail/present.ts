import type { gmail_v1 } from "@googleapis/gmail";
import { decodeWords, type HeaderField } from "../mailbox/headers.ts";
import type { StoredMessage } from "../mailbox/mailbox.ts";
import {
  decodedBytes,
  isAttachment,
  type MimePart,
  parseMime,
  plainTextOf,
  snippetOf,
  toBinary,
} from "../mailbox/mime.ts";

export type MessageFormat = "minimal" | "metadata" | "full" | "raw";

/**
 * Parts with a filename, or bigger than this (text and HTML bodies too), leave format=full with
 * only body.attachmentId and body.size, for attachments.get, as Gmail does. Google publishes no
 * figure for when a body part stays out; 256 KB is our choice (about where clients lost bodies).
 */
export const INLINE_LIMIT = 256 * 1024;

export function parsedMessage(message: StoredMessage): MimePart {
  return parseMime(toBinary(message.raw()));
}

/** Gmail's snippet, computed on first need and kept. */
export function snippet(message: StoredMessage): string {
  message.snippet ??= snippetOf(plainTextOf(parsedMessage(message)));
  return message.snippet;
}

/** Lower-cased subject, addresses and body text for word search, computed once. */
export function searchText(message: StoredMessage): string {
  if (message.searchText === undefined) {
    const { headers } = message;
    const body = plainTextOf(parsedMessage(message)).slice(0, 20_000);
    message.searchText =
      `${headers.subject}\n${headers.from}\n${headers.to}\n${headers.cc}\n${body}`.toLowerCase();
  }
  return message.searchText;
}

export function attachmentId(message: StoredMessage, partId: string): string {
  return `ANGjdJ${Buffer.from(`${message.id}:${partId}`).toString("base64url")}`;
}

export function partIdFromAttachmentId(message: StoredMessage, id: string): string | undefined {
  if (!id.startsWith("ANGjdJ")) return undefined;
  const [messageId, partId] = Buffer.from(id.slice(6), "base64url").toString("utf8").split(":");
  return messageId === message.id ? partId : undefined;
}

function presentHeaders(headers: readonly HeaderField[]): gmail_v1.Schema$MessagePartHeader[] {
  return headers.map((header) => ({ name: header.name, value: decodeWords(header.value) }));
}

function presentPart(message: StoredMessage, part: MimePart): gmail_v1.Schema$MessagePart {
  const out: gmail_v1.Schema$MessagePart = {
    partId: part.partId,
    mimeType: part.mimeType,
    filename: part.filename,
    headers: presentHeaders(part.headers),
  };
  if (part.parts.length > 0) {
    out.body = { size: 0 };
    out.parts = part.parts.map((child) => presentPart(message, child));
    return out;
  }
  const bytes = decodedBytes(part);
  if (isAttachment(part) || bytes.length > INLINE_LIMIT) {
    out.body = { attachmentId: attachmentId(message, part.partId), size: bytes.length };
  } else {
    out.body = bytes.length === 0 ? { size: 0 } : { size: bytes.length, data: bytes.toString("base64url") };
  }
  return out;
}

/** A Gmail Message resource in the requested format. */
export function presentMessage(
  message: StoredMessage,
  format: MessageFormat,
  metadataHeaders: readonly string[] = [],
): gmail_v1.Schema$Message {
  const out: gmail_v1.Schema$Message = {
    id: message.id,
    threadId: message.threadId,
    labelIds: [...message.labels],
    snippet: snippet(message),
    sizeEstimate: message.sizeEstimate,
    historyId: String(message.historyId),
    internalDate: String(message.internalDate),
  };
  if (format === "minimal") return out;
  if (format === "raw") {
    out.raw = Buffer.from(message.raw(), "utf8").toString("base64url");
    return out;
  }
  const root = parsedMessage(message);
  if (format === "metadata") {
    const wanted = metadataHeaders.map((name) => name.toLowerCase());
    const headers =
      wanted.length === 0 ? root.headers : root.headers.filter((h) => wanted.includes(h.name.toLowerCase()));
    out.payload = {
      partId: "",
      mimeType: root.mimeType,
      filename: "",
      headers: presentHeaders(headers),
      body: { size: 0 },
    };
    return out;
  }
  out.payload = presentPart(message, root);
  return out;
}
