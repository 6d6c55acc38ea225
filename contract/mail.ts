import { z } from "zod";
import { attachmentSchema } from "./attachments.ts";
import { mailProviderSchema } from "./auth.ts";
import { BUCKETS } from "./buckets.ts";
import {
  COMPOSE_ATTACHMENTS_MAX,
  COMPOSE_HTML_MAX,
  composeAttachmentRefSchema,
  composeModeSchema,
} from "./compose.ts";

export const bucketSchema = z.enum(BUCKETS);

/** aiAnalysis as the Email carries it (spec section 3: all optional). */
export const emailAiAnalysisSchema = z
  .object({
    importance: z.number().optional(),
    category: z.string().optional(),
    isArchived: z.boolean().optional(),
    bucketCategory: z.string().optional(),
    microsoftCategory: z.string().optional(),
  })
  .passthrough();

export const addressSchema = z.object({ name: z.string(), address: z.string() });

/**
 * An email as GET /api/emails returns it: the spec's fields (id, from, to, subject, snippet,
 * bodyHtml, bodyText, date, isRead, isStarred, isArchived, aiAnalysis) plus what a unified
 * inbox needs (account, bucket, flag, thread, unsubscribe availability).
 */
export const emailSchema = z.object({
  id: z.string(),
  /** "Name <address>" as the spec's client shows it. */
  from: z.string(),
  fromName: z.string(),
  fromAddress: z.string(),
  /** Comma-separated recipients, as the spec's client shows them. */
  to: z.string(),
  cc: z.string(),
  subject: z.string(),
  snippet: z.string(),
  /** Null in list answers (bodies come with GET /api/emails/:id). */
  bodyHtml: z.string().nullable(),
  bodyText: z.string().nullable(),
  /** ISO 8601. */
  date: z.string(),
  isRead: z.boolean(),
  isStarred: z.boolean(),
  isFlagged: z.boolean(),
  isArchived: z.boolean(),
  bucket: bucketSchema.nullable(),
  accountId: z.string(),
  accountEmail: z.string(),
  provider: mailProviderSchema,
  threadId: z.string().nullable(),
  /**
   * The conversation this message belongs to (contract/conversations.ts): our opaque key of
   * (account, Gmail threadId / Graph conversationId); a message without a thread is its own.
   */
  conversationId: z.string(),
  canUnsubscribe: z.boolean(),
  /** True when the email has any attachment that is not an inline (cid:) image: the paperclip. */
  hasAttachments: z.boolean(),
  /** Every attachment, inline ones included, with signed links (GET /api/emails/:id); [] in list answers. */
  attachments: z.array(attachmentSchema),
  /**
   * Null until analysed. List answers carry the five fields above; GET /api/emails/:id carries
   * the whole stored analysis (summary, key points, security scan, ...).
   */
  aiAnalysis: emailAiAnalysisSchema.nullable(),
  /**
   * Present (true) while the provider has not confirmed the person's last change: its answer did
   * not come in time. The email shows the change until the provider's state is read back, which
   * may undo it. Absent otherwise, and in list answers.
   */
  pending: z.literal(true).optional(),
  /**
   * When the mail came back to the inbox by itself (issue 37), and why: "snoozed" (its snooze
   * ended: "Snoozed until <time>") or "no_reply" (a follow-up reminder). Absent otherwise.
   */
  resurfacedAt: z.string().optional(),
  resurfaceReason: z.enum(["snoozed", "no_reply"]).optional(),
});
export type Email = z.infer<typeof emailSchema>;

/** GET /api/emails: newest first, cursor-paginated. */
export const emailListQuerySchema = z.object({
  cursor: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  bucket: bucketSchema.optional(),
  accountId: z.string().uuid().optional(),
  unread: z.enum(["true", "false"]).optional(),
  q: z.string().max(200).optional(),
  /** Include archived mail (the spec's client filters archived out itself). */
  includeArchived: z.enum(["true", "false"]).optional(),
  /**
   * messages (the default, when absent): one row per message. conversations: one row per conversation, its newest
   * matching message plus `conversation` (contract/conversations.ts conversationListResponseSchema).
   */
  view: z.enum(["messages", "conversations"]).optional(),
});
export type EmailListQuery = z.infer<typeof emailListQuerySchema>;

export const emailListResponseSchema = z.object({
  emails: z.array(emailSchema),
  nextCursor: z.string().nullable(),
});
export type EmailListResponse = z.infer<typeof emailListResponseSchema>;

/** GET /api/emails/stats (spec section 3). */
export const emailStatsSchema = z.object({
  unreadCount: z.number(),
  totalEmails: z.number(),
  readToday: z.number(),
  /** Inbox total as the providers report it (summed over accounts). */
  totalEmailsRemote: z.number(),
  providerCounts: z.object({ gmail: z.number(), outlook: z.number() }),
  /**
   * Inbox mail per bucket, read with the totals (issue 19.4): the bucket cards print
   * 'View All (N)' and their unread badge from here and fetch only the emails they show.
   */
  buckets: z.record(bucketSchema, z.object({ total: z.number(), unread: z.number() })),
});
export type EmailStats = z.infer<typeof emailStatsSchema>;

/** GET /api/emails/analytics?days=N: the Analytics Dashboard's figures over the last N days (UTC). */
export const emailAnalyticsQuerySchema = z.object({
  days: z.coerce.number().int().min(7).max(90).default(14),
});
export const emailAnalyticsSchema = z.object({
  /** One entry per day, oldest first, today last: mail received and mail the person read. */
  days: z.array(z.object({ date: z.string(), received: z.number(), read: z.number() })),
  /** Who sent the most mail in the window, most first (at most 5). */
  topSenders: z.array(z.object({ name: z.string(), address: z.string(), count: z.number() })),
});
export type EmailAnalytics = z.infer<typeof emailAnalyticsSchema>;

/** GET /api/emails/action-items. */
export const actionItemsSchema = z.object({
  count: z.number(),
  items: z.array(z.object({ id: z.string(), from: z.string(), subject: z.string(), reason: z.string() })),
});
export type ActionItems = z.infer<typeof actionItemsSchema>;

/** POST /api/emails/bulk-action (spec: archive or markRead). */
export const bulkActionRequestSchema = z.object({
  action: z.enum(["archive", "markRead"]),
  emailIds: z.array(z.string().uuid()).min(1).max(1000),
});

/** PATCH /api/emails/:id: the reader's single-email actions. */
export const emailPatchSchema = z
  .object({
    isRead: z.boolean().optional(),
    isStarred: z.boolean().optional(),
    isFlagged: z.boolean().optional(),
    isArchived: z.boolean().optional(),
  })
  .refine((v) => Object.keys(v).length > 0, "Nothing to change");

/** POST /api/emails/send. Addresses are comma-separated as typed. */
export const sendEmailRequestSchema = z.object({
  to: z.string(),
  cc: z.string().optional().default(""),
  bcc: z.string().optional().default(""),
  subject: z.string(),
  body: z.string(),
  /** Send from this account; defaults to the account of `inReplyToId`, else the first one. */
  accountId: z.string().uuid().optional(),
  /** The email being replied to or forwarded, so the reply threads. */
  inReplyToId: z.string().uuid().optional(),
  /** Issue 36, writing. How this mail relates to `inReplyToId`; "reply" when absent and it is set. */
  mode: composeModeSchema.optional(),
  /** Rich text (the editor's HTML); sanitized by the server, sent beside `body` as multipart/alternative. */
  html: z.string().max(COMPOSE_HTML_MAX).optional(),
  /** Files to attach: uploads (POST /api/uploads) and, when forwarding, the original's attachments. */
  attachments: z.array(composeAttachmentRefSchema).max(COMPOSE_ATTACHMENTS_MAX).optional(),
  /** The provider draft this mail was written in (GET/PUT /api/drafts); sending removes it. */
  draftId: z.string().max(512).optional(),
});

/** POST /api/emails/unsubscribe. */
export const unsubscribeRequestSchema = z.object({
  emailId: z.string().uuid(),
  // An address is at most 320 characters (RFC 5321); the value can end up in a unique index.
  fromAddress: z.string().max(320).optional(),
});

export const unsubscribeStatusSchema = z.object({
  senderAddress: z.string(),
  method: z.enum(["one_click", "mailto", "link", "none"]),
  status: z.enum(["processing", "done", "failed", "manual"]),
  url: z.string().nullable(),
  detail: z.string().nullable(),
  updatedAt: z.string(),
});
export type UnsubscribeStatus = z.infer<typeof unsubscribeStatusSchema>;

/** Per-account sync progress for the UI ("Syncing 1,234 of 6,046"). */
export const syncStatusSchema = z.object({
  accountId: z.string(),
  status: z.enum(["idle", "syncing", "backfilling", "error", "reauth_required"]),
  syncedCount: z.number(),
  totalEstimate: z.number().nullable(),
  lastSyncedAt: z.string().nullable(),
  lastError: z.string().nullable(),
});
export type SyncStatus = z.infer<typeof syncStatusSchema>;
