import type { gmail_v1 } from "@googleapis/gmail";
import type { ProviderMessage } from "../mail-provider.ts";
import { decodeHeader, parseAddresses } from "../mime/addresses.ts";
import { type FetchedParts, partHeader, readPayload } from "./payload.ts";

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", "#39": "'" };

/** Gmail's snippet is HTML-escaped text; we store plain text. */
function unescapeSnippet(snippet: string): string {
  return snippet.replace(/&(amp|lt|gt|quot|apos|#39);/g, (_match, name: string) => ENTITIES[name] ?? "");
}

function categoryOf(labels: readonly string[]): string | null {
  const category = labels.find((label) => label.startsWith("CATEGORY_"));
  return category === undefined ? null : category.slice("CATEGORY_".length).toLowerCase();
}

/**
 * A `format=full` Gmail message in our terms. Gmail leaves big body parts out of the message;
 * `fetched` holds what attachments.get gave for them (see missingBodyParts). Star is STARRED;
 * the flag is the mailbox's "Flagged by Mailwise" label (`flagLabelId`, see flag-label.ts), never
 * Gmail's own IMPORTANT guess.
 */
export function mapGmailMessage(
  message: gmail_v1.Schema$Message,
  fetched?: FetchedParts,
  flagLabelId?: string,
): ProviderMessage {
  const labels = message.labelIds ?? [];
  const has = (label: string) => labels.includes(label);
  const root = message.payload ?? undefined;
  const header = (name: string) => {
    const value = partHeader(root, name);
    return value === undefined ? null : decodeHeader(value);
  };
  const content = readPayload(root, fetched);
  const internalDate = Number(message.internalDate);
  return {
    providerId: message.id ?? "",
    threadId: message.threadId ?? null,
    internetMessageId: header("message-id"),
    from: parseAddresses(partHeader(root, "from"))[0] ?? { name: "", address: "" },
    to: parseAddresses(partHeader(root, "to")),
    cc: parseAddresses(partHeader(root, "cc")),
    replyTo: parseAddresses(partHeader(root, "reply-to")),
    subject: header("subject") ?? "",
    snippet: unescapeSnippet(message.snippet ?? ""),
    bodyHtml: content.bodyHtml,
    bodyText: content.bodyText,
    receivedAt: new Date(Number.isFinite(internalDate) ? internalDate : 0),
    isRead: !has("UNREAD"),
    isStarred: has("STARRED"),
    isFlagged: flagLabelId !== undefined && has(flagLabelId),
    inInbox: has("INBOX"),
    isTrashed: has("TRASH"),
    isSpam: has("SPAM"),
    isDraft: has("DRAFT"),
    isSent: has("SENT"),
    labels: [...labels],
    providerCategory: categoryOf(labels),
    headers: {
      listUnsubscribe: header("list-unsubscribe"),
      listUnsubscribePost: header("list-unsubscribe-post"),
      authenticationResults: header("authentication-results"),
      inReplyTo: header("in-reply-to"),
      references: header("references"),
    },
    attachments: content.attachments,
  };
}
