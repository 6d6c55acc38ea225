import { z } from "zod";
import { sendDelaySchema } from "./compose.ts";
import { emailSchema } from "./mail.ts";

/**
 * Conversations (issue 35). A conversation is our opaque key of (account, Gmail threadId or Graph
 * conversationId); a message without a thread is a conversation of its own. Every Email carries
 * it as `conversationId`.
 */
export const conversationIdSchema = z.string().uuid();

/** What a list row shows of its conversation: "Dana, me (3)", unread when any message is. */
export const conversationSummarySchema = z.object({
  id: z.string(),
  /** Messages of the conversation stored here (sent and archived ones included, trash and spam not). */
  count: z.number().int().positive(),
  /**
   * Senders' first names, oldest first, "me" for the person's own addresses, each once, with the
   * count in parentheses when there is more than one message: "Dana, me (3)".
   */
  participants: z.string(),
  /** True when any message of the conversation is unread. */
  unread: z.boolean(),
  /** True when any message of the conversation has a (non-inline) attachment. */
  hasAttachments: z.boolean(),
});
export type ConversationSummary = z.infer<typeof conversationSummarySchema>;

/**
 * A row of GET /api/emails?view=conversations: the conversation's newest message that matches the
 * list's filters (bucket, search, unread, account), plus the conversation's summary.
 */
export const conversationListItemSchema = emailSchema.extend({ conversation: conversationSummarySchema });
export type ConversationListItem = z.infer<typeof conversationListItemSchema>;

/** GET /api/emails?view=conversations: one row per conversation, newest activity first, cursor-paginated. */
export const conversationListResponseSchema = z.object({
  emails: z.array(conversationListItemSchema),
  nextCursor: z.string().nullable(),
});
export type ConversationListResponse = z.infer<typeof conversationListResponseSchema>;

/**
 * GET /api/conversations/:id: every message oldest to newest, with bodies, including the person's
 * sent replies and archived messages (not trashed or spam ones). Messages the provider holds and
 * we did not store are fetched when it opens. PATCH and DELETE answer the same shape.
 */
export const conversationSchema = z.object({
  id: z.string(),
  /** The subject of the first message (without the reply prefixes the later ones add). */
  subject: z.string(),
  messages: z.array(emailSchema),
});
export type Conversation = z.infer<typeof conversationSchema>;

/**
 * PATCH /api/conversations/:id: read/unread and archive/unarchive act on every message of it.
 * Star, flag and reply stay per message (PATCH /api/emails/:id). DELETE /api/conversations/:id
 * moves every message to the trash.
 */
export const conversationPatchSchema = z
  .strictObject({
    isRead: z.boolean().optional(),
    isArchived: z.boolean().optional(),
  })
  .refine((v) => Object.keys(v).length > 0, "Nothing to change");
export type ConversationPatch = z.infer<typeof conversationPatchSchema>;

/** GET /api/settings/mail answers it; PATCH /api/settings/mail takes any of its keys and answers it. */
export const mailSettingsSchema = z.object({
  /** "Conversation view": lists show one row per conversation. On by default. */
  conversationView: z.boolean(),
  /** "Undo send" (issue 36): seconds a sent mail is held, one of SEND_DELAYS (default 10). */
  sendDelaySeconds: sendDelaySchema,
});
export type MailSettings = z.infer<typeof mailSettingsSchema>;

export const mailSettingsPatchSchema = z
  .strictObject({ conversationView: z.boolean().optional(), sendDelaySeconds: sendDelaySchema.optional() })
  .refine((v) => Object.keys(v).length > 0, "Nothing to change");
export type MailSettingsPatch = z.infer<typeof mailSettingsPatchSchema>;
