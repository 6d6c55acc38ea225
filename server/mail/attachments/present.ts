import type { Attachment, AttachmentPreview } from "../../../contract/attachments.ts";
import type { StoredAttachment } from "../../db/schema.ts";
import { attachmentIdFor } from "../../providers/attachment-id.ts";
import type { AttachmentLinks } from "./links.ts";

/** Types a browser shows itself without running anything of the sender's: never SVG, HTML or XML. */
const PREVIEW_TYPES: Readonly<Record<string, Exclude<AttachmentPreview, null>>> = {
  "image/png": "image",
  "image/jpeg": "image",
  "image/jpg": "image",
  "image/gif": "image",
  "image/webp": "image",
  "image/bmp": "image",
  "application/pdf": "pdf",
};

/** What Preview offers for a type; null means download only. */
export function previewOf(mimeType: string): AttachmentPreview {
  return PREVIEW_TYPES[mimeType.toLowerCase()] ?? null;
}

/** Rows synced before migration 0022 carry no id: their position stands in (downloads need a resync). */
export function storedIdOf(stored: StoredAttachment, index: number): string {
  return stored.id ?? attachmentIdFor(`legacy:${index}`);
}

export interface PresentableAttachment {
  id: string;
  filename: string;
  mimeType: string;
  size: number;
  inline: boolean;
  contentId: string | null;
}

/** One attachment with its signed links (the only way attachment data leaves the server). */
export function presentAttachment(
  a: PresentableAttachment,
  owner: { userId: string; emailId: string },
  links: AttachmentLinks,
): Attachment {
  const mimeType = a.mimeType.toLowerCase();
  const preview = previewOf(mimeType);
  const claims = { userId: owner.userId, emailId: owner.emailId, attachmentId: a.id };
  return {
    id: a.id,
    filename: a.filename,
    mimeType,
    size: a.size,
    inline: a.inline,
    contentId: a.contentId,
    preview,
    isMessage: mimeType === "message/rfc822",
    url: links.url({ ...claims, mode: "download" }),
    inlineUrl: preview === null ? null : links.url({ ...claims, mode: "inline" }),
  };
}

/** A stored email's attachments as the reader gets them. */
export function presentStoredAttachments(
  stored: readonly StoredAttachment[],
  owner: { userId: string; emailId: string },
  links: AttachmentLinks,
): Attachment[] {
  return stored.map((a, index) =>
    presentAttachment(
      {
        id: storedIdOf(a, index),
        filename: a.filename,
        mimeType: a.mimeType,
        size: a.size,
        inline: a.inline === true,
        contentId: a.contentId ?? null,
      },
      owner,
      links,
    ),
  );
}
