import { randomBytes } from "node:crypto";
import type { gmail_v1 } from "@googleapis/gmail";
import { ProviderRequestError } from "../http/errors.ts";
import type { Address, OutgoingMessage } from "../mail-provider.ts";
import { buildRfc822 } from "../mime/build.ts";
import { collect, withAttachments } from "../mime/mixed.ts";
import type { GmailContext } from "./client.ts";
import { GMAIL_COSTS } from "./costs.ts";

/** The RFC 822 text of an outgoing message, and the thread it belongs to when replying. */
export function rawMessage(from: Address, message: OutgoingMessage): { raw: string; threadId?: string } {
  let text: string;
  try {
    text = buildRfc822({
      from,
      to: message.to,
      cc: message.cc,
      bcc: message.bcc,
      subject: message.subject,
      body: message.body,
      inReplyTo: message.replyTo?.internetMessageId ?? null,
      references: message.replyTo?.references ?? null,
      ...(message.html !== undefined ? { html: message.html } : {}),
      ...(message.messageId ? { messageId: message.messageId } : {}),
      ...(message.calendar ? { calendar: message.calendar } : {}),
    });
  } catch (err) {
    // An address we refuse to put in a header: the request is wrong, retrying cannot help.
    throw new ProviderRequestError("permanent", "invalid recipient address", {}, { cause: err });
  }
  const threadId = message.replyTo?.threadId ?? undefined;
  return { raw: Buffer.from(text, "utf8").toString("base64url"), ...(threadId ? { threadId } : {}) };
}

/** messages.send (100 units). Gmail threads a reply by threadId plus matching References/Subject. */
export async function send(
  ctx: GmailContext,
  from: Address,
  message: OutgoingMessage,
): Promise<{ providerId: string | null }> {
  if (message.attachments && message.attachments.length > 0) return sendWithFiles(ctx, from, message);
  const sent = await ctx.http.json<gmail_v1.Schema$Message>({
    method: "POST",
    url: `${ctx.api}/messages/send`,
    body: rawMessage(from, message),
    once: true,
    weight: GMAIL_COSTS.messagesSend,
  });
  return { providerId: sent?.id ?? null };
}

/**
 * Whether a message with this Message-ID is in the mailbox (messages.list q=rfc822msgid:, spam
 * and trash included): a held mail's retry asks before sending again (issue 36).
 */
export async function findSent(ctx: GmailContext, internetMessageId: string): Promise<boolean> {
  const params = new URLSearchParams({
    q: `rfc822msgid:${internetMessageId.replace(/^<|>$/g, "")}`,
    includeSpamTrash: "true",
    maxResults: "1",
  });
  const found = await ctx.http.json<gmail_v1.Schema$ListMessagesResponse>({
    method: "GET",
    url: `${ctx.api}/messages?${params.toString()}`,
    weight: GMAIL_COSTS.messagesList,
  });
  return (found?.messages?.length ?? 0) > 0;
}

/**
 * A message with files goes through the upload endpoint (issue 36): messages.send with
 * uploadType=multipart, a multipart/related body of the JSON metadata (threadId) and the
 * message/rfc822 itself, which Gmail takes up to 35 MB (a JSON `raw` is capped far lower).
 */
async function sendWithFiles(
  ctx: GmailContext,
  from: Address,
  message: OutgoingMessage,
): Promise<{ providerId: string | null }> {
  const { raw, threadId } = rawMessage(from, message);
  const text = Buffer.from(raw, "base64url").toString("utf8");
  const rfc822 = await collect(withAttachments(text, message.attachments ?? []));
  const { body, contentType } = relatedBody(threadId ? { threadId } : {}, rfc822);
  const sent = await ctx.http.json<gmail_v1.Schema$Message>({
    method: "POST",
    url: `${uploadApi(ctx)}/messages/send?uploadType=multipart`,
    headers: { "content-type": contentType },
    body,
    // A send is never repeated by the client: a timed-out one may have gone out (held mail asks first).
    once: true,
    weight: GMAIL_COSTS.messagesSend,
  });
  return { providerId: sent?.id ?? null };
}

/** A multipart/related upload body: the JSON metadata, then the message/rfc822. */
export function relatedBody(meta: object, rfc822: Buffer): { body: Buffer; contentType: string } {
  const boundary = `mw_upload_${randomBytes(12).toString("hex")}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n${JSON.stringify(
        meta,
      )}\r\n--${boundary}\r\nContent-Type: message/rfc822\r\n\r\n`,
      "utf8",
    ),
    rfc822,
    Buffer.from(`\r\n--${boundary}--\r\n`, "utf8"),
  ]);
  return { body, contentType: `multipart/related; boundary=${boundary}` };
}

/** `{base}/gmail/v1/users/me` -> `{base}/upload/gmail/v1/users/me`, Gmail's media upload path. */
export function uploadApi(ctx: GmailContext): string {
  const at = ctx.api.lastIndexOf("/gmail/v1/");
  return `${ctx.api.slice(0, at)}/upload${ctx.api.slice(at)}`;
}

/** drafts.create; the id returned is the draft's message id, the same kind of id sync stores. */
export async function createDraft(
  ctx: GmailContext,
  from: Address,
  message: OutgoingMessage,
): Promise<{ providerId: string }> {
  const draft = await ctx.http.json<gmail_v1.Schema$Draft>({
    method: "POST",
    url: `${ctx.api}/drafts`,
    body: { message: rawMessage(from, message) },
    weight: GMAIL_COSTS.draftsCreate,
  });
  const id = draft?.message?.id;
  if (!id) throw new ProviderRequestError("transient", "Gmail drafts.create answered without a message id");
  return { providerId: id };
}

/** users.watch on the inbox; Gmail pushes to the Pub/Sub topic, not to a URL of ours. */
export async function watch(ctx: GmailContext): Promise<{ expiresAt: Date }> {
  const answer = await ctx.http.json<gmail_v1.Schema$WatchResponse>({
    method: "POST",
    url: `${ctx.api}/watch`,
    body: { topicName: ctx.pushTopic, labelIds: ["INBOX"], labelFilterBehavior: "INCLUDE" },
    weight: GMAIL_COSTS.watch,
  });
  const expiration = Number(answer?.expiration);
  // Google's watch lasts 7 days; renew daily as recommended even if the answer lacks a date.
  return {
    expiresAt: new Date(Number.isFinite(expiration) && expiration > 0 ? expiration : Date.now() + 86_400_000),
  };
}

export async function stopWatch(ctx: GmailContext): Promise<void> {
  await ctx.http.request({ method: "POST", url: `${ctx.api}/stop`, weight: GMAIL_COSTS.stop });
}
