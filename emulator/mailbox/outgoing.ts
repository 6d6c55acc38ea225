import type { Identity } from "../identities.ts";
import { newMessageId, rfc2822Date } from "./compose.ts";
import {
  formatAddress,
  headerValue,
  parseAddressList,
  parseHeaderBlock,
  splitHeaderBlock,
} from "./headers.ts";
import type { StoredMessage } from "./mailbox.ts";
import type { MailServices } from "./services.ts";

/** Adds the headers a provider fills in when a client leaves them out (From, Date, Message-ID). */
export function completeOutgoing(raw: string, sender: Identity, now: number): string {
  const normalized = raw.replace(/\r?\n/g, "\r\n");
  const { head, body } = splitHeaderBlock(normalized);
  const fields = parseHeaderBlock(head);
  const added: string[] = [];
  if (headerValue(fields, "from") === undefined)
    added.push(`From: ${formatAddress({ name: sender.name, address: sender.email })}`);
  if (headerValue(fields, "date") === undefined) added.push(`Date: ${rfc2822Date(now)}`);
  if (headerValue(fields, "message-id") === undefined)
    added.push(`Message-ID: ${newMessageId(sender.email.split("@")[1] ?? "mail")}`);
  const fullHead = [...added, head].filter((part) => part !== "").join("\r\n");
  return `${fullHead}\r\n\r\n${body}`;
}

function recipients(raw: string): string[] {
  const fields = parseHeaderBlock(splitHeaderBlock(raw).head);
  return ["to", "cc", "bcc"].flatMap((name) =>
    parseAddressList(headerValue(fields, name)).map((address) => address.address.toLowerCase()),
  );
}

function withoutBcc(raw: string): string {
  const { head, body } = splitHeaderBlock(raw);
  return `${head.replace(/^Bcc:.*(?:\r?\n[ \t].*)*(?:\r?\n)?/im, "")}\r\n\r\n${body}`;
}

/**
 * Stores a sent message in the sender's mailbox (SENT, or INBOX too when sent to oneself) and
 * delivers a copy to every emulator identity among the recipients, so two demo accounts can
 * mail each other and the app sees it arrive through sync.
 */
export function sendMessage(
  mail: MailServices,
  sender: Identity,
  raw: string,
  options: { threadId?: string | undefined; saveCopy?: boolean } = {},
): StoredMessage | undefined {
  const now = mail.context.clock.now();
  const complete = completeOutgoing(raw, sender, now);
  const to = recipients(complete);
  const senderBox = mail.mailboxOf(sender);
  const toSelf = to.includes(sender.email.toLowerCase());
  let sent: StoredMessage | undefined;
  if (options.saveCopy !== false) {
    sent = senderBox.add({
      raw: () => complete,
      internalDate: now,
      labelIds: toSelf ? ["SENT", "INBOX", "UNREAD"] : ["SENT"],
      threadId: options.threadId,
    });
  }
  const delivered = withoutBcc(complete);
  const seen = new Set<string>([sender.email.toLowerCase()]);
  for (const address of to) {
    if (seen.has(address)) continue;
    seen.add(address);
    for (const identity of mail.context.identities.findByEmail(address)) {
      mail.mailboxOf(identity).add({
        raw: () => delivered,
        internalDate: now,
        labelIds: ["INBOX", "UNREAD", "CATEGORY_PERSONAL"],
      });
      for (const listener of mail.deliveryListeners) listener(identity, delivered);
    }
  }
  return sent;
}
