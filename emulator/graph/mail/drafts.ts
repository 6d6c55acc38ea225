import { bodyObject } from "../../gmail/params.ts";
import { parsedMessage } from "../../gmail/present.ts";
import type { Identity } from "../../identities.ts";
import { composeMessage } from "../../mailbox/compose.ts";
import {
  type Address,
  headerValue,
  parseAddressList,
  parseHeaderBlock,
  splitHeaderBlock,
} from "../../mailbox/headers.ts";
import type { StoredMessage } from "../../mailbox/mailbox.ts";
import { bodies } from "../../mailbox/mime.ts";
import type { DraftFile } from "./draft-attachments.ts";
import { deliveredBodies } from "./html-body.ts";

/**
 * Graph draft messages: what a draft holds, read back from its stored RFC 822 text, and that text
 * rebuilt when a client PATCHes the draft (Graph keeps the draft's id) or sends it.
 */
export interface DraftFields {
  to: Address[];
  cc: Address[];
  bcc: Address[];
  subject: string;
  text: string | undefined;
  html: string | undefined;
}

interface RecipientInput {
  emailAddress?: { name?: string; address?: string };
}

/** Graph recipients (`[{emailAddress:{name,address}}]`) as addresses; entries without one are skipped. */
export function graphAddresses(value: unknown): Address[] {
  if (!Array.isArray(value)) return [];
  return (value as RecipientInput[]).flatMap((recipient) => {
    const address = recipient.emailAddress?.address;
    return typeof address === "string" ? [{ name: recipient.emailAddress?.name ?? address, address }] : [];
  });
}

export function draftFields(message: StoredMessage): DraftFields {
  const raw = message.raw();
  const head = parseHeaderBlock(splitHeaderBlock(raw).head);
  const { text, html } = bodies(parsedMessage(message));
  return {
    to: parseAddressList(message.headers.to),
    cc: parseAddressList(message.headers.cc),
    // The store's index leaves Bcc out (delivered copies never carry it); a draft keeps it.
    bcc: parseAddressList(headerValue(head, "bcc")),
    subject: message.headers.subject,
    text,
    html,
  };
}

/** The draft's fields with a PATCH body's subject, body and recipients applied. */
export function patchedFields(current: DraftFields, patch: Record<string, unknown>): DraftFields {
  const next = { ...current };
  if (typeof patch.subject === "string") next.subject = patch.subject;
  const content = bodyObject(patch.body);
  if (typeof content.content === "string") {
    const html = String(content.contentType ?? "text").toLowerCase() === "html";
    next.html = html ? content.content : undefined;
    next.text = html ? undefined : content.content;
  }
  if (Array.isArray(patch.toRecipients)) next.to = graphAddresses(patch.toRecipients);
  if (Array.isArray(patch.ccRecipients)) next.cc = graphAddresses(patch.ccRecipients);
  if (Array.isArray(patch.bccRecipients)) next.bcc = graphAddresses(patch.bccRecipients);
  return next;
}

/**
 * RFC 822 text for the draft's fields, dated `now`, keeping its Message-ID (Graph's
 * internetMessageId stays with the item) and its reply headers (createReply set them).
 */
export function draftRaw(
  draft: StoredMessage,
  fields: DraftFields,
  sender: Identity,
  now: number,
  attachments: readonly DraftFile[] = [],
): string {
  const { headers } = draft;
  return composeMessage({
    from: { name: sender.name, address: sender.email },
    to: fields.to,
    cc: fields.cc,
    bcc: fields.bcc,
    subject: fields.subject,
    // An HTML body goes out with the text form Exchange writes for it (html-body.ts).
    ...(fields.html === undefined ? { text: fields.text ?? "" } : deliveredBodies(true, fields.html)),
    ...(attachments.length > 0 ? { attachments } : {}),
    date: now,
    ...(headers.messageId === "" ? {} : { messageId: headers.messageId }),
    ...(headers.inReplyTo === "" ? {} : { inReplyTo: headers.inReplyTo }),
    ...(headers.references === "" ? {} : { references: headers.references }),
  });
}
