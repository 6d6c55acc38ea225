import type { gmail_v1 } from "@googleapis/gmail";
import type { AttachmentMeta } from "../mail-provider.ts";
import { charsetOf, decodeCharset } from "../mime/charset.ts";

type Part = gmail_v1.Schema$MessagePart;

export interface PayloadContent {
  bodyText: string | null;
  bodyHtml: string | null;
  attachments: AttachmentMeta[];
}

/** A header of one part, case-insensitively; Gmail keeps the sender's spelling of names. */
export function partHeader(part: Part | undefined, name: string): string | undefined {
  const wanted = name.toLowerCase();
  return part?.headers?.find((header) => header.name?.toLowerCase() === wanted)?.value ?? undefined;
}

function isAttachment(part: Part): boolean {
  if (part.filename) return true;
  return /^\s*attachment/i.test(partHeader(part, "content-disposition") ?? "");
}

/** body.data is base64url of the transfer-decoded bytes, still in the part's own charset. */
function decodePart(part: Part): string | null {
  const data = part.body?.data;
  if (data === undefined || data === null) return null;
  const bytes = Buffer.from(data, "base64url");
  return decodeCharset(bytes, charsetOf(partHeader(part, "content-type")));
}

/**
 * Walks a `format=full` payload tree: the first text/plain and first text/html that are not
 * attachments become the bodies (so multipart/alternative and mixed both work), parts with a
 * filename or attachment disposition are listed as attachments (metadata only).
 */
export function readPayload(root: Part | undefined): PayloadContent {
  const out: PayloadContent = { bodyText: null, bodyHtml: null, attachments: [] };
  const visit = (part: Part, depth: number) => {
    // Real mail nests a few levels; a deeper tree is malformed or hostile.
    if (depth > 20) return;
    if (part.parts && part.parts.length > 0) {
      for (const child of part.parts) visit(child, depth + 1);
      return;
    }
    const mimeType = (part.mimeType ?? "").toLowerCase();
    if (isAttachment(part)) {
      out.attachments.push({
        filename: part.filename ?? "",
        mimeType: mimeType || "application/octet-stream",
        size: part.body?.size ?? 0,
      });
      return;
    }
    if (mimeType === "text/plain" && out.bodyText === null) out.bodyText = decodePart(part);
    else if (mimeType === "text/html" && out.bodyHtml === null) out.bodyHtml = decodePart(part);
  };
  if (root) visit(root, 0);
  return out;
}
