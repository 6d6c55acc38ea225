import type { gmail_v1 } from "@googleapis/gmail";
import { failureStatus, ProviderRequestError } from "../http/errors.ts";
import type { MessagePage, ProviderMessage } from "../mail-provider.ts";
import { runBatch } from "./batch.ts";
import type { GmailContext } from "./client.ts";
import { GMAIL_COSTS } from "./costs.ts";
import { mapGmailMessage } from "./mapper.ts";

const ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Provider ids go into URL paths; anything odd is refused rather than escaped into a new path. */
export function checkId(id: string): string {
  if (!ID.test(id)) throw new ProviderRequestError("permanent", "invalid Gmail message id");
  return id;
}

function parse(text: string): gmail_v1.Schema$Message | undefined {
  try {
    return JSON.parse(text) as gmail_v1.Schema$Message;
  } catch {
    return undefined;
  }
}

/**
 * Full messages for `ids` through the batch endpoint. format=full (5 units, like raw) because
 * Gmail then does the transfer decoding and leaves big attachments out of the answer; ids that
 * answer 404 (deleted meanwhile) map to null.
 */
export async function fetchMessages(
  ctx: GmailContext,
  ids: readonly string[],
): Promise<Map<string, ProviderMessage | null>> {
  const unique = [...new Set(ids)];
  const answers = await runBatch(
    ctx,
    unique.map((id, index) => ({
      id: `m${index}`,
      method: "GET" as const,
      path: `/gmail/v1/users/me/messages/${checkId(id)}?format=full`,
      cost: GMAIL_COSTS.messagesGet,
    })),
  );
  const out = new Map<string, ProviderMessage | null>();
  unique.forEach((id, index) => {
    const answer = answers.get(`m${index}`);
    const message = answer && answer.status === 200 ? parse(answer.text) : undefined;
    out.set(id, message === undefined ? null : mapGmailMessage(message));
  });
  return out;
}

export async function getMessage(ctx: GmailContext, id: string): Promise<ProviderMessage | null> {
  try {
    const message = await ctx.http.json<gmail_v1.Schema$Message>({
      method: "GET",
      url: `${ctx.api}/messages/${checkId(id)}?format=full`,
      weight: GMAIL_COSTS.messagesGet,
    });
    return mapGmailMessage(message);
  } catch (err) {
    if (failureStatus(err) === 404) return null;
    throw err;
  }
}

/**
 * Inbox newest first via messages.list, then the page's messages in one batch. With `since`,
 * the query also takes in mail received after it that already left the inbox (Gmail's search
 * language: `in:inbox OR after:<epoch seconds>`; spam and trash stay out by default).
 */
export async function listMessages(
  ctx: GmailContext,
  opts: { pageToken?: string; pageSize: number; since?: Date },
): Promise<MessagePage> {
  const params = new URLSearchParams({
    maxResults: String(Math.min(500, Math.max(1, Math.floor(opts.pageSize)))),
  });
  if (opts.since) params.set("q", `in:inbox OR after:${Math.floor(opts.since.getTime() / 1000)}`);
  else params.set("labelIds", "INBOX");
  if (opts.pageToken) params.set("pageToken", opts.pageToken);
  const list = await ctx.http.json<gmail_v1.Schema$ListMessagesResponse>({
    method: "GET",
    url: `${ctx.api}/messages?${params.toString()}`,
    weight: GMAIL_COSTS.messagesList,
  });
  const ids = (list.messages ?? []).flatMap((ref) => (ref.id ? [ref.id] : []));
  const fetched = await fetchMessages(ctx, ids);
  // Keep the list's order (newest first); messages deleted since the list are skipped.
  const messages = ids.flatMap((id) => {
    const message = fetched.get(id);
    return message ? [message] : [];
  });
  return {
    messages,
    ...(list.nextPageToken ? { nextPageToken: list.nextPageToken } : {}),
    ...(typeof list.resultSizeEstimate === "number" ? { totalEstimate: list.resultSizeEstimate } : {}),
  };
}

export async function getProfile(
  ctx: GmailContext,
): Promise<{ email: string; inboxTotal: number; inboxUnread: number }> {
  const [profile, inbox] = await Promise.all([
    ctx.http.json<gmail_v1.Schema$Profile>({
      method: "GET",
      url: `${ctx.api}/profile`,
      weight: GMAIL_COSTS.getProfile,
    }),
    ctx.http.json<gmail_v1.Schema$Label>({
      method: "GET",
      url: `${ctx.api}/labels/INBOX`,
      weight: GMAIL_COSTS.labelsGet,
    }),
  ]);
  return {
    email: profile.emailAddress ?? "",
    inboxTotal: inbox.messagesTotal ?? 0,
    inboxUnread: inbox.messagesUnread ?? 0,
  };
}

/** The mailbox's current historyId: history.list from here on sees every later change. */
export async function getCursor(ctx: GmailContext): Promise<string> {
  const profile = await ctx.http.json<gmail_v1.Schema$Profile>({
    method: "GET",
    url: `${ctx.api}/profile`,
    weight: GMAIL_COSTS.getProfile,
  });
  if (!profile.historyId) throw new ProviderRequestError("transient", "Gmail profile has no historyId");
  return profile.historyId;
}
