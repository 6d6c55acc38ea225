import { z } from "zod";

/**
 * Attachments of an email (issue 35). Bytes never come through the JSON API: every attachment
 * carries short-lived signed links (`/api/attachments/<token>`) that a plain `<a href>`, an
 * `<img src>` in the sandboxed mail frame or a preview frame can load without the bearer token.
 */

/** What Preview offers for an attachment; null means download only. */
export const attachmentPreviewSchema = z.enum(["image", "pdf"]).nullable();
export type AttachmentPreview = z.infer<typeof attachmentPreviewSchema>;

export const attachmentSchema = z.object({
  /** Opaque, url-safe, stable for this email (not Gmail's attachmentId, which changes between fetches). */
  id: z.string(),
  /** As the sender named it: show it as text only, never as HTML or a path. */
  filename: z.string(),
  /** Lower-case type/subtype as the sender declared it. */
  mimeType: z.string(),
  /** Bytes (decoded). */
  size: z.number(),
  /** A part the HTML body shows through `cid:`; lists show non-inline attachments only. */
  inline: z.boolean(),
  /** The Content-ID without angle brackets, for rewriting `cid:` references; null when none. */
  contentId: z.string().nullable(),
  preview: attachmentPreviewSchema,
  /** An attached message (message/rfc822): GET /api/emails/:id/attachments/:attachmentId/message opens it. */
  isMessage: z.boolean(),
  /** Signed download link (Content-Disposition: attachment), valid for an hour. */
  url: z.string(),
  /** Signed link serving the bytes inline (images and PDFs only: preview and cid: images); else null. */
  inlineUrl: z.string().nullable(),
});
export type Attachment = z.infer<typeof attachmentSchema>;

/** GET /api/emails/:id/attachments/:attachmentId/message: an attached message/rfc822, parsed. */
export const attachedMessageSchema = z.object({
  /** "Name <address>", as Email.from. */
  from: z.string(),
  /** Comma-separated, as Email.to. */
  to: z.string(),
  cc: z.string(),
  subject: z.string(),
  /** ISO 8601, or null when the message has no readable Date header. */
  date: z.string().nullable(),
  /** Unsanitized, as Email.bodyHtml: the web sanitizes it like any mail body. */
  bodyHtml: z.string().nullable(),
  bodyText: z.string().nullable(),
  /** Its own attachments, with ids nested under the attached message's id. */
  attachments: z.array(attachmentSchema),
});
export type AttachedMessage = z.infer<typeof attachedMessageSchema>;

/**
 * The error codes the attachment routes answer with (all in contract/errors.ts):
 * attachment_not_found (404: deleted at the provider, or an id that is not this person's),
 * provider_timeout (504), provider_reauth_required (409: the account's grant was revoked),
 * invalid_link (403: a forged or expired signed link).
 */
export const attachmentErrorCodes = [
  "attachment_not_found",
  "provider_timeout",
  "provider_reauth_required",
  "invalid_link",
] as const;
export type AttachmentErrorCode = (typeof attachmentErrorCodes)[number];

/** How long a signed attachment link stays valid. */
export const ATTACHMENT_LINK_TTL_SECONDS = 3600;
