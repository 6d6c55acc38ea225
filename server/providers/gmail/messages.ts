import type { gmail_v1 } from "@googleapis/gmail";
import { failureStatus, ProviderRequestError } from "../http/errors.ts";
import type { MessagePage, ProviderMessage } from "../mail-provider.ts";
import { runBatch } from "./batch.ts";
import type { GmailContext } from "./client.ts";
import { GMAIL_COSTS } from "./costs.ts";
import { findFlagLabel } from "./flag-label.ts";
import { mapGmailMessage } from "./mapper.ts";
import { findCalendarPart, inlinePartText, type MissingPart, missingBodyParts } from "./payload.ts";

const ID = /^[A-Za-z0-9_-]{1,64}$/;
/** Gmail's attachment ids are long base64url strings (hundreds of characters). */
const ATTACHMENT_ID = /^[A-Za-z0-9_-]{1,4096}$/;

/** Provider ids go into URL paths; anything odd is refused rather than escaped into a new path. */
export function checkId(id: string): string {
  if (!ID.test(id)) throw new ProviderRequestError("permanent", "invalid Gmail message id");
  return id;
}

function parse<T>(text: string): T | undefined {
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

/** `/messages/{id}/attachments/{attachmentId}` below `users/me`. */
function attachmentPath(messageId: string, part: MissingPart): string {
  if (!ATTACHMENT_ID.test(part.attachmentId))
    throw new ProviderRequestError("permanent", "invalid Gmail attachment id");
  return `/messages/${checkId(messageId)}/attachments/${part.attachmentId}`;
}

type PartBody = gmail_v1.Schema$MessagePartBody;

/**
 * The big body parts Gmail leaves out of format=full (body.attachmentId, no body.data), by
 * message id then attachment id, through attachments.get (5 units each): in batches when the
 * messages came in a batch, as plain GETs for getMessage. A part that answers 404 (the message
 * went meanwhile) stays out, and its body stays null.
 */
async function fetchBodyParts(
  ctx: GmailContext,
  messages: readonly gmail_v1.Schema$Message[],
  via: "batch" | "get",
): Promise<Map<string, Map<string, string>>> {
  const wanted = messages.flatMap((message) => {
    const id = message.id;
    return id ? missingBodyParts(message.payload ?? undefined).map((part) => ({ id, part })) : [];
  });
  const out = new Map<string, Map<string, string>>();
  const keep = (id: string, part: MissingPart, body: PartBody | undefined) => {
    if (typeof body?.data !== "string") return;
    const parts = out.get(id) ?? new Map<string, string>();
    parts.set(part.attachmentId, body.data);
    out.set(id, parts);
  };
  if (wanted.length === 0) return out;
  if (via === "get") {
    await Promise.all(
      wanted.map(async ({ id, part }) => {
        try {
          const body = await ctx.http.json<PartBody>({
            method: "GET",
            url: `${ctx.api}${attachmentPath(id, part)}`,
            weight: GMAIL_COSTS.attachmentsGet,
          });
          keep(id, part, body);
        } catch (err) {
          if (failureStatus(err) !== 404) throw err;
        }
      }),
    );
    return out;
  }
  const answers = await runBatch(
    ctx,
    wanted.map(({ id, part }, index) => ({
      id: `p${index}`,
      method: "GET" as const,
      path: `/gmail/v1/users/me${attachmentPath(id, part)}`,
      cost: GMAIL_COSTS.attachmentsGet,
    })),
  );
  wanted.forEach(({ id, part }, index) => {
    const answer = answers.get(`p${index}`);
    if (answer?.status === 200) keep(id, part, parse<PartBody>(answer.text));
  });
  return out;
}

/** Maps fetched messages after downloading the body parts Gmail left out of them. */
export async function mapWithBodies(
  ctx: GmailContext,
  messages: readonly gmail_v1.Schema$Message[],
  via: "batch" | "get",
): Promise<ProviderMessage[]> {
  const parts = await fetchBodyParts(ctx, messages, via);
  const userLabels = messages.some((m) => m.labelIds?.some((label) => label.startsWith("Label_")));
  const flagLabelId = messages.length > 0 ? await findFlagLabel(ctx, userLabels) : undefined;
  return messages.map((message) => mapGmailMessage(message, parts.get(message.id ?? ""), flagLabelId));
}

/**
 * Full messages for `ids` through the batch endpoint. format=full (5 units, like raw) because
 * Gmail then does the transfer decoding and leaves big attachments out of the answer (big
 * body parts too: a second batch fetches those); ids that answer 404 (deleted meanwhile) map
 * to null.
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
  const found = unique.flatMap((id, index) => {
    const answer = answers.get(`m${index}`);
    const message = answer?.status === 200 ? parse<gmail_v1.Schema$Message>(answer.text) : undefined;
    return message === undefined ? [] : [{ id, message }];
  });
  const mapped = await mapWithBodies(
    ctx,
    found.map((f) => f.message),
    "batch",
  );
  const out = new Map<string, ProviderMessage | null>(unique.map((id) => [id, null]));
  found.forEach(({ id }, index) => {
    out.set(id, mapped[index] ?? null);
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
    const [mapped] = await mapWithBodies(ctx, [message], "get");
    return mapped ?? null;
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
  // The first page carries the pass's total for the progress banner: the inbox label's exact
  // messagesTotal, not messages.list's resultSizeEstimate, which Gmail documents as a rough
  // estimate (issue 19.3 saw "1,120" for an 831-mail inbox).
  const [list, inbox] = await Promise.all([
    ctx.http.json<gmail_v1.Schema$ListMessagesResponse>({
      method: "GET",
      url: `${ctx.api}/messages?${params.toString()}`,
      weight: GMAIL_COSTS.messagesList,
    }),
    opts.pageToken
      ? Promise.resolve(undefined)
      : ctx.http.json<gmail_v1.Schema$Label>({
          method: "GET",
          url: `${ctx.api}/labels/INBOX`,
          weight: GMAIL_COSTS.labelsGet,
        }),
  ]);
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
    ...(typeof inbox?.messagesTotal === "number" ? { totalEstimate: inbox.messagesTotal } : {}),
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

/**
 * The text of a message's first invitation part (text/calendar, application/ics or .ics), or null
 * when it has none, it is gone, or the part is over `maxBytes`. One messages.get, plus one
 * attachments.get when Gmail left the part's content out (every named attachment).
 */
export async function getCalendarPart(
  ctx: GmailContext,
  id: string,
  maxBytes: number,
): Promise<string | null> {
  try {
    const message = await ctx.http.json<gmail_v1.Schema$Message>({
      method: "GET",
      url: `${ctx.api}/messages/${checkId(id)}?format=full`,
      weight: GMAIL_COSTS.messagesGet,
    });
    const part = findCalendarPart(message.payload ?? undefined);
    if (!part || (part.body?.size ?? 0) > maxBytes) return null;
    const inline = inlinePartText(part);
    if (inline !== null) return inline;
    const attachmentId = part.body?.attachmentId;
    if (!attachmentId) return null;
    const body = await ctx.http.json<PartBody>({
      method: "GET",
      url: `${ctx.api}${attachmentPath(id, { attachmentId, size: part.body?.size ?? 0 })}`,
      weight: GMAIL_COSTS.attachmentsGet,
    });
    return typeof body.data === "string" ? inlinePartText({ ...part, body: { data: body.data } }) : null;
  } catch (err) {
    if (failureStatus(err) === 404) return null;
    throw err;
  }
}
