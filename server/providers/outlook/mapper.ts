import type { Attachment, FileAttachment, Message, Recipient } from "@microsoft/microsoft-graph-types";
import { attachmentIdFor, bareContentId } from "../attachment-id.ts";
import { capBody, textFromHtml } from "../body-text.ts";
import type { Address, AttachmentMeta, ProviderMessage } from "../mail-provider.ts";

/**
 * Outlook has no star, and one native flag. Mailwise maps:
 * - star -> the follow-up flag (`flag.flagStatus` flagged/notFlagged): Outlook's own "mark this"
 *   gesture, shown where Gmail shows a star; "complete" reads as not starred.
 * - flag -> a category named FLAG_CATEGORY, so it round-trips independently of star
 *   (setFlagged never touches the follow-up flag, setStarred never touches categories).
 */
export const FLAG_CATEGORY = "Flagged by Mailwise";

/** Well-known folder ids of this mailbox, for reading parentFolderId. */
export interface FolderIds {
  inbox: string;
  archive: string;
  deleteditems: string;
  junkemail: string;
  sentitems: string;
  drafts: string;
}

/** Everything we read from a message; internetMessageHeaders only comes back when selected. */
export const MESSAGE_SELECT = [
  "id",
  "conversationId",
  "internetMessageId",
  "subject",
  "from",
  "sender",
  "toRecipients",
  "ccRecipients",
  "replyTo",
  "receivedDateTime",
  "bodyPreview",
  "body",
  "isRead",
  "isDraft",
  "flag",
  "categories",
  "inferenceClassification",
  "parentFolderId",
  "hasAttachments",
  "internetMessageHeaders",
].join(",");

/**
 * What we read of an attachment: metadata only. Without $select Graph sends every file's
 * contentBytes (base64) along; the names below keep a listing small whatever the files weigh.
 */
export const ATTACHMENT_SELECT = ["id", "name", "contentType", "size", "isInline", "contentId"].join(",");

function address(recipient: Recipient | null | undefined): Address | undefined {
  const email = recipient?.emailAddress;
  if (!email?.address) return undefined;
  return { name: email.name ?? "", address: email.address };
}

function addresses(list: NullableOption<Recipient[]>): Address[] {
  return (list ?? []).flatMap((recipient) => {
    const one = address(recipient);
    return one ? [one] : [];
  });
}

type NullableOption<T> = T | null | undefined;

/**
 * Graph attachments (file, item or reference) in the shape the Gmail mapper gives: the name,
 * the bare lower-case media type (Gmail's part mimeType has no parameters) and the size in bytes.
 */
export function mapGraphAttachments(attachments: readonly Attachment[]): AttachmentMeta[] {
  return attachments.map((attachment, index) => {
    const kind = (attachment as { "@odata.type"?: string })["@odata.type"] ?? "";
    const isMessage = kind.endsWith("itemAttachment");
    const contentType = isMessage
      ? "message/rfc822"
      : (attachment.contentType ?? "").split(";")[0]?.trim().toLowerCase() || "application/octet-stream";
    const filename = attachment.name ?? "";
    const size = attachment.size ?? 0;
    const contentId = bareContentId((attachment as FileAttachment).contentId);
    return {
      filename,
      mimeType: contentType,
      size,
      // Graph's ids change when the message moves: our id keys on what stays.
      id: attachmentIdFor(`outlook:${index}:${filename}:${size}`),
      ...(attachment.id ? { ref: attachment.id } : {}),
      contentId,
      inline: attachment.isInline === true && contentId !== null,
    };
  });
}

/**
 * A Graph message (selected with MESSAGE_SELECT) in our terms. Graph lists attachments only
 * through a second call per message, so the caller passes what that call gave (see messages.ts).
 */
export function mapGraphMessage(
  message: Message,
  folders: FolderIds,
  attachments: AttachmentMeta[] = [],
): ProviderMessage {
  const header = (name: string): string | null => {
    const wanted = name.toLowerCase();
    return message.internetMessageHeaders?.find((h) => h.name?.toLowerCase() === wanted)?.value ?? null;
  };
  const body = message.body;
  const isHtml = body?.contentType === "html";
  const content = body?.content ?? null;
  const categories = message.categories ?? [];
  const folder = message.parentFolderId ?? "";
  const received = Date.parse(message.receivedDateTime ?? "");
  return {
    providerId: message.id ?? "",
    threadId: message.conversationId ?? null,
    internetMessageId: message.internetMessageId ?? null,
    from: address(message.from) ?? address(message.sender) ?? { name: "", address: "" },
    to: addresses(message.toRecipients),
    cc: addresses(message.ccRecipients),
    replyTo: addresses(message.replyTo),
    subject: message.subject ?? "",
    snippet: message.bodyPreview ?? "",
    bodyHtml: content !== null && isHtml ? capBody(content) : null,
    // Most mail comes as HTML only (we ask for HTML); its text is what search and AI read.
    bodyText: content === null ? null : isHtml ? textFromHtml(content) : capBody(content),
    receivedAt: new Date(Number.isFinite(received) ? received : 0),
    isRead: message.isRead === true,
    isStarred: message.flag?.flagStatus === "flagged",
    isFlagged: categories.includes(FLAG_CATEGORY),
    inInbox: folder === folders.inbox,
    isTrashed: folder === folders.deleteditems,
    isSpam: folder === folders.junkemail,
    isDraft: message.isDraft === true,
    isSent: folder === folders.sentitems,
    labels: [...categories],
    providerCategory: message.inferenceClassification ? message.inferenceClassification.toLowerCase() : null,
    headers: {
      listUnsubscribe: header("list-unsubscribe"),
      listUnsubscribePost: header("list-unsubscribe-post"),
      authenticationResults: header("authentication-results"),
      inReplyTo: header("in-reply-to"),
      references: header("references"),
    },
    attachments,
  };
}
