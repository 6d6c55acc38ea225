import type { gmail_v1 } from "@googleapis/gmail";
import { attachmentIdFor, bareContentId } from "../attachment-id.ts";
import { capBody, MAX_BODY_PART_BYTES, textFromHtml } from "../body-text.ts";
import type { AttachmentMeta } from "../mail-provider.ts";
import { charsetOf, decodeCharset } from "../mime/charset.ts";

type Part = gmail_v1.Schema$MessagePart;

/** Content of big body parts fetched through attachments.get: attachmentId -> base64url data. */
export type FetchedParts = ReadonlyMap<string, string>;

export interface PayloadContent {
  bodyText: string | null;
  bodyHtml: string | null;
  attachments: AttachmentMeta[];
}

/** A body part Gmail left out of the message (big parts): fetch it with attachments.get. */
export interface MissingPart {
  attachmentId: string;
  size: number;
}

/** A header of one part, case-insensitively; Gmail keeps the sender's spelling of names. */
export function partHeader(part: Part | undefined, name: string): string | undefined {
  const wanted = name.toLowerCase();
  return part?.headers?.find((header) => header.name?.toLowerCase() === wanted)?.value ?? undefined;
}

function isAttachment(part: Part): boolean {
  if (part.filename) return true;
  if (/^\s*attachment/i.test(partHeader(part, "content-disposition") ?? "")) return true;
  // A cid: image without a name (a signature logo) is a file the HTML shows, not a body.
  return (
    partHeader(part, "content-id") !== undefined && !(part.mimeType ?? "").toLowerCase().startsWith("text/")
  );
}

/**
 * A part the HTML body shows through cid: (Content-ID, not disposition attachment), or an
 * unnamed calendar alternative of an invitation: neither is a file the reader lists.
 */
function isInlinePart(part: Part): boolean {
  const disposition = (partHeader(part, "content-disposition") ?? "").trim().toLowerCase();
  if (disposition.startsWith("attachment")) return false;
  if (partHeader(part, "content-id") !== undefined) return true;
  return !part.filename && isCalendarPart(part);
}

/** Stored attachment metadata of one part: what the reader lists and what a download needs. */
function attachmentMeta(part: Part): AttachmentMeta {
  const partId = part.partId ?? "";
  return {
    filename: part.filename ?? "",
    mimeType: (part.mimeType ?? "").toLowerCase() || "application/octet-stream",
    size: part.body?.size ?? 0,
    id: attachmentIdFor(`gmail:${partId}`),
    ref: partId,
    ...(part.body?.attachmentId ? { fetchId: part.body.attachmentId } : {}),
    contentId: bareContentId(partHeader(part, "content-id")),
    inline: isInlinePart(part),
  };
}

/**
 * body.data is base64url of the transfer-decoded bytes, still in the part's own charset. Big
 * parts carry only body.attachmentId; their data comes from `fetched` once downloaded.
 */
function decodePart(part: Part | undefined, fetched: FetchedParts): string | null {
  const attachmentId = part?.body?.attachmentId;
  const data = part?.body?.data ?? (attachmentId ? fetched.get(attachmentId) : undefined);
  if (part === undefined || data === undefined || data === null) return null;
  const bytes = Buffer.from(data, "base64url");
  return capBody(decodeCharset(bytes, charsetOf(partHeader(part, "content-type"))));
}

/**
 * An invitation part: text/calendar (often inline in multipart/alternative, without a name),
 * application/ics, or a file named .ics. Inline ones are listed with the attachments, so the
 * stored metadata says the message carries an invitation.
 */
export function isCalendarPart(part: Part): boolean {
  const mimeType = (part.mimeType ?? "").toLowerCase();
  return (
    mimeType === "text/calendar" || mimeType === "application/ics" || /\.ics$/i.test(part.filename ?? "")
  );
}

/** The first invitation part of a payload tree, in document order. */
export function findCalendarPart(root: Part | undefined): Part | undefined {
  return selectParts(root).attachments.find(isCalendarPart);
}

/** A part's inline content (base64url) as UTF-8 text, when Gmail sent it in the message. */
export function inlinePartText(part: Part): string | null {
  const data = part.body?.data;
  if (typeof data !== "string") return null;
  return decodeCharset(Buffer.from(data, "base64url"), charsetOf(partHeader(part, "content-type")));
}

/** How deep and how many parts of a payload tree are read. */
const MAX_DEPTH = 20;
export const MAX_PARTS = 500;

interface SelectedParts {
  text: Part | undefined;
  html: Part | undefined;
  attachments: Part[];
}

/**
 * Walks a `format=full` payload tree: the first text/plain and first text/html with content
 * that are not attachments are the bodies (so multipart/alternative and mixed both work), also
 * when Gmail left their content out; parts with a filename or attachment disposition are
 * attachments.
 */
function selectParts(root: Part | undefined): SelectedParts {
  const out: SelectedParts = { text: undefined, html: undefined, attachments: [] };
  let visited = 0;
  const visit = (part: Part, depth: number) => {
    // Real mail nests a few levels and has a few dozen parts; a bigger tree is malformed or
    // hostile, and everything past the bounds is left out (so is its metadata in our row).
    if (depth > MAX_DEPTH || visited >= MAX_PARTS) return;
    visited += 1;
    if (part.parts && part.parts.length > 0) {
      for (const child of part.parts) visit(child, depth + 1);
      return;
    }
    if (isAttachment(part) || isCalendarPart(part)) {
      out.attachments.push(part);
      return;
    }
    if (part.body?.data == null && !part.body?.attachmentId) return;
    const mimeType = (part.mimeType ?? "").toLowerCase();
    if (mimeType === "text/plain") out.text ??= part;
    else if (mimeType === "text/html") out.html ??= part;
  };
  if (root) visit(root, 0);
  return out;
}

/**
 * The body parts of a message whose content Gmail left out (`body.attachmentId` without
 * `body.data`) and `fetched` does not hold yet. Parts past MAX_BODY_PART_BYTES stay out: they
 * would only be cut after a costly download.
 */
export function missingBodyParts(root: Part | undefined, fetched: FetchedParts = new Map()): MissingPart[] {
  const { text, html } = selectParts(root);
  return [text, html].flatMap((part) => {
    const attachmentId = part?.body?.attachmentId;
    const size = part?.body?.size ?? 0;
    if (!attachmentId || part?.body?.data != null || fetched.has(attachmentId)) return [];
    return size <= MAX_BODY_PART_BYTES ? [{ attachmentId, size }] : [];
  });
}

/** Bodies (with the big parts from `fetched`) and attachment metadata of a `format=full` payload. */
export function readPayload(root: Part | undefined, fetched: FetchedParts = new Map()): PayloadContent {
  const { text, html, attachments } = selectParts(root);
  const bodyHtml = decodePart(html, fetched);
  return {
    // HTML-only mail gets its text derived as Outlook's does (search and the analyzer read text).
    bodyText: decodePart(text, fetched) ?? (bodyHtml ? textFromHtml(bodyHtml) : null),
    bodyHtml,
    attachments: attachments.map(attachmentMeta),
  };
}
