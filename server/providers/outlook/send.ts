import type { Message, Recipient } from "@microsoft/microsoft-graph-types";
import { failureStatus, ProviderRequestError } from "../http/errors.ts";
import type { Address, OutgoingMessage, WatchResult } from "../mail-provider.ts";
import { buildRfc822 } from "../mime/build.ts";
import { isSafeAddress, messageIds, singleLine } from "../mime/header-safety.ts";
import { attachFiles } from "./attachments-send.ts";
import { checkGraphId, type OutlookContext } from "./client.ts";
import { type Collection, odataQuery } from "./messages.ts";

function recipients(list: readonly Address[]): Recipient[] {
  return list.map((entry) => {
    // Graph builds the headers itself, but a bad address is still our mistake to refuse early.
    if (!isSafeAddress(entry.address))
      throw new ProviderRequestError("permanent", "invalid recipient address");
    return { emailAddress: { name: singleLine(entry.name), address: entry.address } };
  });
}

export function graphMessage(message: OutgoingMessage): Message {
  return {
    subject: singleLine(message.subject),
    // Rich text goes as Graph's HTML body; Exchange writes the text/plain alternative itself.
    body:
      message.html !== undefined
        ? { contentType: "html", content: message.html }
        : { contentType: "text", content: message.body },
    toRecipients: recipients(message.to),
    ccRecipients: recipients(message.cc),
    bccRecipients: recipients(message.bcc),
    // Graph keeps a draft's internetMessageId as given: held mail finds it again by it (findSent).
    ...(message.messageId ? { internetMessageId: message.messageId } : {}),
  };
}

/** The Graph id of the message being replied to, found by its RFC 5322 Message-ID; null if unknown. */
async function findOriginal(ctx: OutlookContext, message: OutgoingMessage): Promise<string | null> {
  const messageId = messageIds(message.replyTo?.internetMessageId)[0];
  if (messageId === undefined) return null;
  try {
    const query = odataQuery({
      $filter: `internetMessageId eq '${messageId.replace(/'/g, "''")}'`,
      $select: "id",
      $top: "1",
    });
    const found = await ctx.http.json<Collection<Message>>({
      method: "GET",
      url: `${ctx.api}/me/messages?${query}`,
    });
    return found.value?.[0]?.id ?? null;
  } catch (err) {
    // 400: this Graph cannot filter by internetMessageId; send unthreaded rather than not at all.
    if (failureStatus(err) === 400 || failureStatus(err) === 404) return null;
    throw err;
  }
}

/** Graph's action for each way of answering: each makes a draft in the original's conversation. */
const CREATE_ACTION = { reply: "createReply", replyAll: "createReplyAll", forward: "createForward" } as const;

/**
 * A reply or forward draft made by createReply / createReplyAll / createForward (Graph sets
 * In-Reply-To, References and the conversation), then our recipients, subject and body patched
 * in. The original is the id we synced (same mailbox) or found by its Message-ID; null when
 * neither finds it, and the mail goes out unthreaded rather than not at all.
 */
async function replyDraft(ctx: OutlookContext, message: OutgoingMessage): Promise<string | null> {
  const original = message.replyTo?.providerId ?? (await findOriginal(ctx, message));
  if (original === null) return null;
  const action = CREATE_ACTION[message.replyTo?.mode ?? "reply"];
  let draft: Message;
  try {
    draft = await ctx.http.json<Message>({
      method: "POST",
      url: `${ctx.api}/me/messages/${checkGraphId(original)}/${action}`,
    });
  } catch (err) {
    // The synced id went stale (moved or deleted since): send unthreaded rather than fail.
    if (failureStatus(err) === 404) return null;
    throw err;
  }
  if (!draft.id) throw new ProviderRequestError("transient", `Graph ${action} answered without an id`);
  await ctx.http.request({
    method: "PATCH",
    url: `${ctx.api}/me/messages/${checkGraphId(draft.id)}`,
    body: graphMessage(message),
  });
  // createForward copies every file of the original; the person chose which to keep, and those
  // come back as our own attachments, so the copies go.
  if (action === "createForward") await deleteFiles(ctx, draft.id, () => true);
  return draft.id;
}

/** Deletes the draft's files whose Graph id `drop` picks. */
export async function deleteFiles(ctx: OutlookContext, draftId: string, drop: (id: string) => boolean) {
  const held = await ctx.http.json<Collection<{ id?: string }>>({
    method: "GET",
    url: `${ctx.api}/me/messages/${checkGraphId(draftId)}/attachments?$select=id`,
  });
  for (const file of held.value ?? []) {
    if (!file.id || !drop(file.id)) continue;
    await ctx.http.request({
      method: "DELETE",
      url: `${ctx.api}/me/messages/${checkGraphId(draftId)}/attachments/${encodeURIComponent(file.id)}`,
    });
  }
}

/**
 * sendMail in MIME format (a base64 RFC 822 body, text/plain): the only way Graph sends a message
 * with our own text/calendar part, which an iMIP reply needs.
 */
async function sendMime(ctx: OutlookContext, message: OutgoingMessage): Promise<{ providerId: null }> {
  if (!ctx.from) throw new ProviderRequestError("permanent", "no sender address for a MIME message");
  let text: string;
  try {
    text = buildRfc822({
      from: ctx.from,
      to: message.to,
      cc: message.cc,
      bcc: message.bcc,
      subject: message.subject,
      body: message.body,
      ...(message.messageId ? { messageId: message.messageId } : {}),
      ...(message.calendar ? { calendar: message.calendar } : {}),
    });
  } catch (err) {
    throw new ProviderRequestError("permanent", "invalid recipient address", {}, { cause: err });
  }
  await ctx.http.request({
    method: "POST",
    url: `${ctx.api}/me/sendMail`,
    body: Buffer.from(text, "utf8").toString("base64"),
    once: true,
    headers: { "content-type": "text/plain" },
  });
  return { providerId: null };
}

/** sendMail (202, no id); a reply or forward goes through its create action + send so Outlook threads it. */
export async function send(
  ctx: OutlookContext,
  message: OutgoingMessage,
): Promise<{ providerId: string | null }> {
  if (message.calendar) return sendMime(ctx, message);
  if (message.attachments && message.attachments.length > 0) return sendWithFiles(ctx, message);
  const body = graphMessage(message);
  const draftId = message.replyTo ? await replyDraft(ctx, message) : null;
  if (draftId !== null) {
    await ctx.http.request({
      method: "POST",
      url: `${ctx.api}/me/messages/${checkGraphId(draftId)}/send`,
      once: true,
    });
    return { providerId: null };
  }
  await ctx.http.request({
    method: "POST",
    url: `${ctx.api}/me/sendMail`,
    body: { message: body, saveToSentItems: true },
    once: true,
  });
  return { providerId: null };
}

/**
 * Files need a draft (issue 36): the reply draft or a new one, the files attached to it, then
 * send. A draft left by a failure is deleted, so nothing half-made lingers in Drafts.
 */
async function sendWithFiles(ctx: OutlookContext, message: OutgoingMessage): Promise<{ providerId: null }> {
  let draftId = message.replyTo ? await replyDraft(ctx, message) : null;
  if (draftId === null) {
    const draft = await ctx.http.json<Message>({
      method: "POST",
      url: `${ctx.api}/me/messages`,
      body: graphMessage(message),
    });
    if (!draft.id) throw new ProviderRequestError("transient", "Graph answered a draft without an id");
    draftId = draft.id;
  }
  try {
    await attachFiles(ctx, draftId, message.attachments ?? []);
  } catch (err) {
    await ctx.http
      .request({ method: "DELETE", url: `${ctx.api}/me/messages/${checkGraphId(draftId)}` })
      .catch(() => undefined);
    throw err;
  }
  await ctx.http.request({
    method: "POST",
    url: `${ctx.api}/me/messages/${checkGraphId(draftId)}/send`,
    once: true,
  });
  return { providerId: null };
}

export async function createDraft(
  ctx: OutlookContext,
  message: OutgoingMessage,
): Promise<{ providerId: string }> {
  const replyId = message.replyTo ? await replyDraft(ctx, message) : null;
  if (replyId !== null) return { providerId: replyId };
  const draft = await ctx.http.json<Message>({
    method: "POST",
    url: `${ctx.api}/me/messages`,
    body: graphMessage(message),
  });
  if (!draft.id) throw new ProviderRequestError("transient", "Graph answered a draft without an id");
  return { providerId: draft.id };
}

/** Mail subscriptions may live about 3 days; we ask for 2 and renew daily. */
const SUBSCRIPTION_MS = 2 * 24 * 60 * 60_000;

interface Subscription {
  id?: string;
  expirationDateTime?: string;
}

function watchResult(subscription: Subscription, asked: Date): WatchResult {
  const expires = Date.parse(subscription.expirationDateTime ?? "");
  return {
    expiresAt: new Date(Number.isFinite(expires) ? expires : asked.getTime()),
    ...(subscription.id ? { subscriptionId: subscription.id } : {}),
  };
}

/**
 * Renews `subscriptionId` (PATCH expirationDateTime) when given and still known to Graph,
 * otherwise creates a subscription on the inbox. Graph validates notificationUrl before answering.
 */
export async function watch(
  ctx: OutlookContext,
  notificationUrl: string,
  clientState: string,
  subscriptionId?: string,
): Promise<WatchResult> {
  const expirationDateTime = new Date(Date.now() + SUBSCRIPTION_MS);
  if (subscriptionId) {
    try {
      const renewed = await ctx.http.json<Subscription>({
        method: "PATCH",
        url: `${ctx.api}/subscriptions/${checkGraphId(subscriptionId)}`,
        body: { expirationDateTime: expirationDateTime.toISOString() },
      });
      return watchResult(renewed, expirationDateTime);
    } catch (err) {
      if (failureStatus(err) !== 404) throw err;
    }
  }
  const created = await ctx.http.json<Subscription>({
    method: "POST",
    url: `${ctx.api}/subscriptions`,
    body: {
      changeType: "created,updated,deleted",
      notificationUrl,
      resource: "me/mailFolders('inbox')/messages",
      expirationDateTime: expirationDateTime.toISOString(),
      clientState,
    },
  });
  return watchResult(created, expirationDateTime);
}

export async function stopWatch(ctx: OutlookContext, subscriptionId: string | undefined): Promise<void> {
  if (!subscriptionId) return;
  try {
    await ctx.http.request({
      method: "DELETE",
      url: `${ctx.api}/subscriptions/${checkGraphId(subscriptionId)}`,
    });
  } catch (err) {
    // Already gone (expired or deleted): the goal is reached.
    if (failureStatus(err) !== 404) throw err;
  }
}
