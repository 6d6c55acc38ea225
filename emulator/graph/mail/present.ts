import type { MailFolder, Message, Recipient } from "@microsoft/microsoft-graph-types";
import { FOLDER_DISPLAY_NAMES, type FolderName, folderOf, isCustomFolder } from "../../mailbox/folders.ts";
import {
  decodeWords,
  headerValue,
  parseAddressList,
  parseHeaderBlock,
  splitHeaderBlock,
} from "../../mailbox/headers.ts";
import { conversationId, graphFolderId } from "../../mailbox/ids.ts";
import type { Mailbox, StoredMessage } from "../../mailbox/mailbox.ts";
import {
  bodies,
  htmlToText,
  isAttachment,
  leafParts,
  type MimePart,
  parseMime,
  toBinary,
} from "../../mailbox/mime.ts";
import { draftFilesOf } from "./draft-attachments.ts";

function recipients(value: string): Recipient[] {
  return parseAddressList(value).map((address) => ({
    emailAddress: { name: address.name, address: address.address },
  }));
}

/** The MIME parts Outlook turns into attachments: the same ones Gmail lists (name or disposition). */
export function attachmentParts(root: MimePart): MimePart[] {
  return leafParts(root).filter(isAttachment);
}

/**
 * Inline parts (shown in the body through `cid:`) are attachments with isInline, and Graph's
 * hasAttachments leaves them out: a message with only inline images has hasAttachments false.
 */
export function isInlinePart(part: MimePart): boolean {
  const disposition = (headerValue(part.headers, "content-disposition") ?? "").trim().toLowerCase();
  if (disposition.startsWith("attachment")) return false;
  if (disposition.startsWith("inline")) return true;
  return headerValue(part.headers, "content-id") !== undefined;
}

export function presentFolder(mailbox: Mailbox, folder: FolderName): MailFolder {
  const counts = mailbox.folderCounts(folder);
  return {
    id: graphFolderId(mailbox.key, folder),
    displayName: isCustomFolder(folder)
      ? (mailbox.customFolders.get(folder) ?? folder)
      : FOLDER_DISPLAY_NAMES[folder],
    parentFolderId: graphFolderId(mailbox.key, "msgfolderroot"),
    childFolderCount: 0,
    unreadItemCount: counts.unread,
    totalItemCount: counts.total,
    isHidden: false,
  };
}

/** Graph message fields that need the parsed body; others come from the index. */
const BODY_FIELDS = new Set([
  "body",
  "bodypreview",
  "hasattachments",
  "internetmessageheaders",
  "uniquebody",
]);

function draftBcc(message: StoredMessage): string {
  return headerValue(parseHeaderBlock(splitHeaderBlock(message.raw()).head), "bcc") ?? "";
}

export interface PresentOptions {
  /** Lower-cased $select names; undefined = Graph's default set (all but internetMessageHeaders). */
  select: ReadonlySet<string> | undefined;
  bodyType: "html" | "text";
}

export type GraphMessage = Message & { "@odata.etag"?: string };

/** A Graph message resource, trimmed to $select as Graph does (id and @odata.etag always). */
export function presentMessage(
  mailbox: Mailbox,
  message: StoredMessage,
  options: PresentOptions,
): GraphMessage {
  const { select } = options;
  const wants = (name: string) => select === undefined || select.has(name.toLowerCase());
  const needsBody = select === undefined || [...select].some((name) => BODY_FIELDS.has(name));
  const h = message.headers;
  const from = recipients(h.from)[0] ?? { emailAddress: { name: "", address: "" } };
  const received = new Date(message.internalDate).toISOString().replace(/\.\d{3}Z$/, "Z");
  const sentAt = Date.parse(h.date);
  const changeKey = Buffer.from(`CQAAAB${message.seq}.${message.version}`).toString("base64");
  const full: GraphMessage = {
    "@odata.etag": `W/"${changeKey}"`,
    id: message.graphId,
    createdDateTime: received,
    lastModifiedDateTime: received,
    changeKey,
    categories: [...message.categories],
    receivedDateTime: received,
    sentDateTime: Number.isFinite(sentAt)
      ? new Date(sentAt).toISOString().replace(/\.\d{3}Z$/, "Z")
      : received,
    internetMessageId: h.messageId,
    subject: h.subject,
    importance: message.labels.has("IMPORTANT") ? "high" : "normal",
    parentFolderId: graphFolderId(mailbox.key, folderOf(message.labels)),
    conversationId: conversationId(mailbox.key, message.threadId),
    isDeliveryReceiptRequested: false,
    isReadReceiptRequested: false,
    isRead: !message.labels.has("UNREAD"),
    isDraft: message.labels.has("DRAFT"),
    webLink: `https://outlook.live.com/owa/?ItemID=${encodeURIComponent(message.graphId)}&exvsurl=1&viewmodel=ReadMessageItem`,
    inferenceClassification:
      message.labels.has("CATEGORY_PERSONAL") || message.labels.has("IMPORTANT") ? "focused" : "other",
    sender: from,
    from,
    toRecipients: recipients(h.to),
    ccRecipients: recipients(h.cc),
    // Only a draft keeps its Bcc line (sent and received copies drop it).
    bccRecipients: message.labels.has("DRAFT") ? recipients(draftBcc(message)) : [],
    replyTo: [],
    flag: {
      flagStatus: message.flagComplete
        ? "complete"
        : message.labels.has("STARRED")
          ? "flagged"
          : "notFlagged",
    },
  };
  if (needsBody) {
    const root = parseMime(toBinary(message.raw()));
    const { text, html } = bodies(root);
    const plain = text ?? (html === undefined ? "" : htmlToText(html));
    full.bodyPreview = plain.replace(/\s+/g, " ").trim().slice(0, 255);
    full.hasAttachments =
      attachmentParts(root).some((part) => !isInlinePart(part)) || draftFilesOf(message).length > 0;
    full.body =
      options.bodyType === "text" || html === undefined
        ? { contentType: "text", content: plain }
        : { contentType: "html", content: html };
    if (select?.has("internetmessageheaders")) {
      full.internetMessageHeaders = root.headers.map((header) => ({
        name: header.name,
        value: decodeWords(header.value),
      }));
    }
  }
  if (select === undefined) return full;
  const out: GraphMessage = { "@odata.etag": full["@odata.etag"], id: full.id };
  for (const [key, value] of Object.entries(full)) {
    if (wants(key)) (out as Record<string, unknown>)[key] = value;
  }
  return out;
}

export function parseSelect(value: string | undefined): Set<string> | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  return new Set(
    value
      .split(",")
      .map((name) => name.trim().toLowerCase())
      .filter((name) => name !== ""),
  );
}
