import type { Attachment } from "../../contract/attachments.ts";
import type { MailProvider } from "../../contract/auth.ts";
import { isBucket } from "../../contract/buckets.ts";
import type { Email, UnsubscribeStatus } from "../../contract/mail.ts";
import type { StoredAddress, unsubscribeRequests } from "../db/schema.ts";
import type { EmailRow } from "./deps.ts";

/** The columns a list answer needs: no bodies (they can be megabytes), no search vector. */
export type EmailSummaryRow = Pick<
  EmailRow,
  | "id"
  | "accountId"
  | "threadId"
  | "conversationId"
  | "fromName"
  | "fromAddress"
  | "toRecipients"
  | "ccRecipients"
  | "subject"
  | "snippet"
  | "receivedAt"
  | "isRead"
  | "isStarred"
  | "isFlagged"
  | "inInbox"
  | "isTrashed"
  | "isSpam"
  | "bucket"
  | "listUnsubscribe"
  | "aiAnalysis"
> &
  Partial<
    Pick<
      EmailRow,
      "bodyHtml" | "bodyText" | "writePendingAt" | "hasAttachments" | "resurfacedAt" | "resurfaceReason"
    >
  >;

export interface AccountInfo {
  email: string;
  provider: MailProvider;
}

/** `Name <address>`, or the bare address when there is no distinct name. */
export function formatSender(name: string, address: string): string {
  const n = name.trim();
  if (!n || n === address) return address;
  return address ? `${n} <${address}>` : n;
}

function joinAddresses(list: readonly StoredAddress[]): string {
  return list.map((a) => formatSender(a.name, a.address)).join(", ");
}

/**
 * The only way an email row leaves the server (house style 3). Fields are listed one by one so
 * new columns (auth results, raw headers) never reach a response by accident.
 */
export function presentEmail(
  row: EmailSummaryRow,
  account: AccountInfo,
  /** The reader's attachments with their signed links (server/mail/attachments); lists send none. */
  attachments: Attachment[] = [],
): Email {
  return {
    id: row.id,
    from: formatSender(row.fromName, row.fromAddress),
    fromName: row.fromName,
    fromAddress: row.fromAddress,
    to: joinAddresses(row.toRecipients),
    cc: joinAddresses(row.ccRecipients),
    subject: row.subject,
    snippet: row.snippet,
    bodyHtml: row.bodyHtml ?? null,
    bodyText: row.bodyText ?? null,
    date: row.receivedAt.toISOString(),
    isRead: row.isRead,
    isStarred: row.isStarred,
    isFlagged: row.isFlagged,
    isArchived: !row.inInbox && !row.isTrashed && !row.isSpam,
    bucket: isBucket(row.bucket) ? row.bucket : null,
    accountId: row.accountId,
    accountEmail: account.email,
    provider: account.provider,
    threadId: row.threadId,
    conversationId: row.conversationId,
    canUnsubscribe: Boolean(row.listUnsubscribe),
    hasAttachments: row.hasAttachments ?? false,
    attachments,
    aiAnalysis: presentAiAnalysis(row.aiAnalysis),
    // Only while the provider's answer to the person's change is outstanding (decision 0019).
    ...(row.writePendingAt ? { pending: true as const } : {}),
    // Mail that came back by itself (issue 37): "Snoozed until <time>" or "No reply yet".
    ...(row.resurfacedAt && (row.resurfaceReason === "snoozed" || row.resurfaceReason === "no_reply")
      ? { resurfacedAt: row.resurfacedAt.toISOString(), resurfaceReason: row.resurfaceReason }
      : {}),
  };
}

/** The Email's aiAnalysis fields of spec section 3, with their types. */
const AI_FIELD_TYPES = {
  importance: "number",
  category: "string",
  isArchived: "boolean",
  bucketCategory: "string",
  microsoftCategory: "string",
} as const satisfies Record<string, "number" | "string" | "boolean">;

/** The stored analysis, minus known fields of the wrong type (older analyzers, hand edits). */
function presentAiAnalysis(ai: Record<string, unknown> | null): Email["aiAnalysis"] {
  if (!ai) return null;
  const out: Record<string, unknown> = { ...ai };
  for (const [key, type] of Object.entries(AI_FIELD_TYPES)) {
    if (key in out && typeof out[key] !== type) delete out[key];
  }
  return out as Email["aiAnalysis"];
}

type UnsubscribeRow = typeof unsubscribeRequests.$inferSelect;

export function presentUnsubscribeStatus(row: UnsubscribeRow): UnsubscribeStatus {
  const method = row.method;
  const status = row.status;
  return {
    senderAddress: row.senderAddress,
    method: method === "one_click" || method === "mailto" || method === "link" ? method : "none",
    status: status === "done" || status === "failed" || status === "manual" ? status : "processing",
    url: row.url,
    detail: row.detail,
    updatedAt: row.updatedAt.toISOString(),
  };
}
