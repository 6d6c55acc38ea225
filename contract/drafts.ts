import { z } from "zod";
import {
  COMPOSE_ATTACHMENTS_MAX,
  COMPOSE_HTML_MAX,
  composeAttachmentRefSchema,
  composeModeSchema,
} from "./compose.ts";

/**
 * Drafts at the provider (issue 36): compose's autosave, the Drafts list and reopening a draft.
 * A draft id is ours and opaque: the account's id and the provider's draft id ("<uuid>:<id>"),
 * so every call names the account it belongs to and is checked against the signed-in person.
 */

/** Ours is a 36-character account id, a colon and the provider's id (Graph ids run ~150 characters). */
export const DRAFT_ID_MAX = 600;
/** What a recipient field may hold as typed (500 recipients of ~100 characters). */
export const DRAFT_RECIPIENTS_TEXT_MAX = 64_000;
export const DRAFT_SUBJECT_MAX = 2_000;

/** PUT /api/drafts: what compose holds; nothing is required, a draft can be half written. */
export const saveDraftRequestSchema = z.object({
  /** The From account; defaults to the draft's account, else the person's first account. */
  accountId: z.string().uuid().optional(),
  /** Absent on the first save; then the id the last save answered. */
  draftId: z.string().min(1).max(DRAFT_ID_MAX).optional(),
  to: z.string().max(DRAFT_RECIPIENTS_TEXT_MAX).optional().default(""),
  cc: z.string().max(DRAFT_RECIPIENTS_TEXT_MAX).optional().default(""),
  bcc: z.string().max(DRAFT_RECIPIENTS_TEXT_MAX).optional().default(""),
  subject: z.string().max(DRAFT_SUBJECT_MAX).optional().default(""),
  body: z.string().max(COMPOSE_HTML_MAX).optional().default(""),
  html: z.string().max(COMPOSE_HTML_MAX).optional(),
  /** The email being replied to or forwarded, so the draft threads like the mail will. */
  inReplyToId: z.string().uuid().optional(),
  mode: composeModeSchema.optional(),
  /**
   * The files the draft holds, in order: new uploads, a forward's originals, and files already on
   * the draft (`kind: "draft"`). A file of the draft left out is removed from it. Absent: the
   * draft's files stay as they are.
   */
  attachments: z.array(composeAttachmentRefSchema).max(COMPOSE_ATTACHMENTS_MAX).optional(),
});
export type SaveDraftRequest = z.input<typeof saveDraftRequestSchema>;

/** A file on a draft at the provider: its id is what a `{kind: "draft"}` ref names. */
export const draftAttachmentSchema = z.object({
  attachmentId: z.string(),
  fileName: z.string(),
  contentType: z.string(),
  size: z.number().int().nonnegative(),
});
export type DraftAttachment = z.infer<typeof draftAttachmentSchema>;

export const savedDraftSchema = z.object({
  draftId: z.string(),
  accountId: z.string(),
  savedAt: z.string(),
  /** Entries of To/Cc/Bcc that are not (yet) an address: kept in compose, left out of the draft. */
  skippedRecipients: z.array(z.string()),
  /**
   * When the request named `attachments`: the draft's files after the save, one for each ref in
   * the request's order (ids change as the provider rewrites the draft: use these next time).
   */
  attachments: z.array(draftAttachmentSchema).optional(),
});
export type SavedDraft = z.infer<typeof savedDraftSchema>;

const recipientSchema = z.object({ name: z.string(), address: z.string() });

/** One row of GET /api/drafts. */
export const draftSummarySchema = z.object({
  id: z.string(),
  accountId: z.string(),
  accountEmail: z.string(),
  to: z.array(recipientSchema),
  subject: z.string(),
  snippet: z.string(),
  /** How many files the draft carries (shown on the Drafts card). */
  fileCount: z.number().int().nonnegative(),
  /** When the provider dates it (Gmail internalDate, Graph receivedDateTime): its last save. */
  updatedAt: z.string(),
});
export type DraftSummary = z.infer<typeof draftSummarySchema>;

/** GET /api/drafts: drafts of every account, newest first; accounts that failed are named. */
export const draftListSchema = z.object({
  drafts: z.array(draftSummarySchema),
  failedAccounts: z.array(z.object({ accountId: z.string(), email: z.string(), message: z.string() })),
});
export type DraftList = z.infer<typeof draftListSchema>;

/** GET /api/drafts/:id: what reopening compose needs (recipient fields as typed: comma-separated). */
export const draftSchema = z.object({
  id: z.string(),
  accountId: z.string(),
  to: z.string(),
  cc: z.string(),
  bcc: z.string(),
  subject: z.string(),
  body: z.string(),
  html: z.string().nullable(),
  /** The files on the draft, removable; a save names the ones kept as `{kind: "draft"}` refs. */
  attachments: z.array(draftAttachmentSchema),
  updatedAt: z.string(),
});
export type Draft = z.infer<typeof draftSchema>;
