import { z } from "zod";

/**
 * Writing mail (issue 36): the shapes compose, drafts, uploads and held (undo-able) sends share.
 * POST /api/emails/send keeps the spec's {to, cc, bcc, subject, body}; these are its additions.
 */

/** new mail, or how it relates to the email it answers (`inReplyToId`). */
export const COMPOSE_MODES = ["new", "reply", "replyAll", "forward"] as const;
export const composeModeSchema = z.enum(COMPOSE_MODES);
export type ComposeMode = z.infer<typeof composeModeSchema>;

/** The editor's HTML, before sanitizing (a long reply with quoted history fits easily). */
export const COMPOSE_HTML_MAX = 2_000_000;
export const COMPOSE_ATTACHMENTS_MAX = 100;
/** More recipients than this (To + Cc + Bcc) is refused before anything is sent. */
export const COMPOSE_RECIPIENTS_MAX = 500;

/** Attachment limits per provider (issue 36): Gmail 25 MB in all; Outlook 150 MB per file via upload sessions. */
export const GMAIL_ATTACHMENTS_TOTAL_MAX = 25 * 1024 * 1024;
export const OUTLOOK_ATTACHMENT_MAX = 150 * 1024 * 1024;
/** Graph takes files up to this size inline in the message; bigger ones need an upload session. */
export const GRAPH_INLINE_ATTACHMENT_MAX = 3 * 1024 * 1024;

export const composeAttachmentRefSchema = z.discriminatedUnion("kind", [
  /** A file the person added, uploaded first with POST /api/uploads. */
  z.object({ kind: z.literal("upload"), uploadId: z.string().uuid() }),
  /** An attachment of the forwarded email (by the id the reader's attachment list gives). */
  z.object({ kind: z.literal("original"), emailId: z.string().uuid(), attachmentId: z.string().max(1024) }),
  /**
   * A file already on the draft at the provider (saved before, or written in Gmail/Outlook), by the
   * id the draft answers give; only with the request's `draftId` (contract/drafts.ts).
   */
  z.object({ kind: z.literal("draft"), attachmentId: z.string().min(1).max(1024) }),
]);
export type ComposeAttachmentRef = z.infer<typeof composeAttachmentRefSchema>;

/** POST /api/uploads answers this (and GET /api/uploads/:id). */
export const uploadSchema = z.object({
  id: z.string().uuid(),
  fileName: z.string(),
  contentType: z.string(),
  size: z.number().int().nonnegative(),
  /** When the server deletes it unless a send used it first. */
  expiresAt: z.string(),
});
export type Upload = z.infer<typeof uploadSchema>;

/** Undo send: the delays a person can choose in settings, seconds. */
export const SEND_DELAYS = [0, 5, 10, 20, 30] as const;
export const DEFAULT_SEND_DELAY = 10;
export const sendDelaySchema = z.union([
  z.literal(0),
  z.literal(5),
  z.literal(10),
  z.literal(20),
  z.literal(30),
]);
