import type { Message, Recipient } from "@microsoft/microsoft-graph-types";
import type { Address, ProviderMessage } from "../mail-provider.ts";

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

/** A Graph message (selected with MESSAGE_SELECT) in our terms. */
export function mapGraphMessage(message: Message, folders: FolderIds): ProviderMessage {
  const header = (name: string): string | null => {
    const wanted = name.toLowerCase();
    return message.internetMessageHeaders?.find((h) => h.name?.toLowerCase() === wanted)?.value ?? null;
  };
  const body = message.body;
  const isHtml = body?.contentType === "html";
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
    bodyHtml: body?.content != null && isHtml ? body.content : null,
    bodyText: body?.content != null && !isHtml ? body.content : null,
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
    // Graph lists attachments only through a second call per message; hasAttachments alone
    // gives no names or sizes, and we do not invent them.
    attachments: [],
  };
}
