import type { emails } from "../db/schema.ts";
import { classifyBucket } from "../mail/bucket-classifier.ts";
import type { ProviderMessage } from "../providers/mail-provider.ts";
import type { SyncAccount } from "./types.ts";

export type EmailInsert = typeof emails.$inferInsert;

// Categories the classifier's microsoftCategory step knows. Others (Gmail's "updates"/"forums",
// Outlook's "focused"/"other") would pin every email to "other", so they fall through to the
// heuristics instead.
const KNOWN_PROVIDER_CATEGORIES = new Set([
  "newsletters",
  "subscription",
  "promotions",
  "marketing",
  "deals",
  "work",
  "business",
  "social",
  "primary",
]);

/**
 * PostgreSQL text cannot hold NUL, and one in a body (binary junk in a text part) would fail the
 * whole page's insert; it carries no meaning in mail text, so it is dropped.
 */
function storable<T extends string | null>(value: T): T {
  return (value?.includes("\0") ? value.replaceAll("\0", "") : value) as T;
}

/**
 * Names people read to decide what a mail is (subject, sender name, attachment names) lose the
 * bidirectional embedding, override and isolate controls (U+202A-202E, U+2066-2069): with them
 * `invoice\u202Efdp.exe` is drawn as `invoiceexe.pdf`. Without them the real order shows.
 */
export function displayText<T extends string | null>(value: T): T {
  if (value === null) return value;
  return storable(value).replace(/[\u202A-\u202E\u2066-\u2069]/g, "") as T;
}

function text(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

/** The bucket of a message: AI hints from a stored analysis first, then the provider's category. */
export function bucketFor(message: ProviderMessage, aiAnalysis: Record<string, unknown> | null | undefined) {
  const category = message.providerCategory?.toLowerCase() ?? null;
  const ai = aiAnalysis ?? {};
  return classifyBucket({
    from: message.from.name ? `${message.from.name} <${message.from.address}>` : message.from.address,
    subject: message.subject,
    snippet: message.snippet,
    aiAnalysis: {
      isArchived: ai.isArchived === true,
      bucketCategory: text(ai.bucketCategory),
      category: text(ai.category),
      microsoftCategory:
        text(ai.microsoftCategory) ?? (category && KNOWN_PROVIDER_CATEGORIES.has(category) ? category : null),
    },
  });
}

/** ProviderMessage -> emails row (everything sync owns; AI analysis and read_at are not touched here). */
export function toEmailRow(
  account: SyncAccount,
  message: ProviderMessage,
  opts: { generation: number; aiAnalysis: Record<string, unknown> | null | undefined; now: Date },
): EmailInsert {
  return {
    userId: account.userId,
    accountId: account.id,
    providerId: message.providerId,
    threadId: message.threadId,
    internetMessageId: message.internetMessageId,
    fromName: displayText(message.from.name),
    fromAddress: message.from.address,
    toRecipients: message.to,
    ccRecipients: message.cc,
    replyToRecipients: message.replyTo,
    subject: displayText(message.subject),
    snippet: storable(message.snippet),
    bodyHtml: storable(message.bodyHtml),
    bodyText: storable(message.bodyText),
    receivedAt: message.receivedAt,
    isRead: message.isRead,
    isStarred: message.isStarred,
    isFlagged: message.isFlagged,
    inInbox: message.inInbox,
    isTrashed: message.isTrashed,
    isSpam: message.isSpam,
    isDraft: message.isDraft,
    isSent: message.isSent,
    labels: message.labels,
    providerCategory: message.providerCategory?.toLowerCase() ?? null,
    bucket: bucketFor(message, opts.aiAnalysis),
    listUnsubscribe: message.headers.listUnsubscribe,
    listUnsubscribePost: message.headers.listUnsubscribePost,
    authenticationResults: message.headers.authenticationResults,
    inReplyTo: message.headers.inReplyTo,
    referencesHeader: message.headers.references,
    attachments: message.attachments.map((a) => ({ ...a, filename: displayText(a.filename) })),
    hasAttachments: message.attachments.some((a) => a.inline !== true),
    syncGeneration: opts.generation,
    createdAt: opts.now,
    updatedAt: opts.now,
  };
}
