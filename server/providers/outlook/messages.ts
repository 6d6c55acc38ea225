import type { Attachment, MailFolder, Message, User } from "@microsoft/microsoft-graph-types";
import { failureStatus, ProviderRequestError } from "../http/errors.ts";
import type { AttachmentMeta, MessagePage, ProviderMessage } from "../mail-provider.ts";
import { runGraphBatch } from "./batch.ts";
import { checkGraphId, checkGraphLink, type OutlookContext } from "./client.ts";
import {
  ATTACHMENT_SELECT,
  type FolderIds,
  MESSAGE_SELECT,
  mapGraphAttachments,
  mapGraphMessage,
} from "./mapper.ts";

const FOLDERS = ["inbox", "archive", "deleteditems", "junkemail", "sentitems", "drafts"] as const;

/** Bodies as HTML (Graph converts text bodies), so the reader has one format to sanitise. */
export const PREFER_HTML = { prefer: 'outlook.body-content-type="html"' };

/** OData system options keep their literal `$` names; values are percent-encoded (%20, not +). */
export function odataQuery(options: Record<string, string>): string {
  return Object.entries(options)
    .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
    .join("&");
}

export interface Collection<T> {
  value?: T[];
  "@odata.nextLink"?: string;
  "@odata.deltaLink"?: string;
}

/** The mailbox's well-known folder ids (one $batch, then cached for this client). */
export async function folderIds(ctx: OutlookContext): Promise<FolderIds> {
  if (ctx.folderIds.size < FOLDERS.length) {
    const answers = await runGraphBatch(
      ctx,
      FOLDERS.map((name) => ({
        id: name,
        method: "GET" as const,
        url: `/me/mailFolders/${name}?$select=id`,
      })),
    );
    for (const name of FOLDERS) {
      const id = (answers.get(name)?.body as MailFolder | undefined)?.id;
      if (typeof id === "string") ctx.folderIds.set(name, id);
    }
  }
  const get = (name: (typeof FOLDERS)[number]) => ctx.folderIds.get(name) ?? `missing:${name}`;
  return {
    inbox: get("inbox"),
    archive: get("archive"),
    deleteditems: get("deleteditems"),
    junkemail: get("junkemail"),
    sentitems: get("sentitems"),
    drafts: get("drafts"),
  };
}

const attachmentsUrl = (id: string) =>
  `/me/messages/${checkGraphId(id)}/attachments?${odataQuery({ $select: ATTACHMENT_SELECT })}`;

/**
 * Attachment metadata of the messages that have any (hasAttachments), one $batch call per 20
 * messages, ids as keys. Messages that vanished meanwhile (404) keep an empty list: the next
 * sync round sees them gone. Graph's hasAttachments leaves out inline-only messages, as we do,
 * so those are read when their HTML refers to cid: parts.
 */
export async function fetchAttachments(
  ctx: OutlookContext,
  messages: readonly Message[],
): Promise<Map<string, AttachmentMeta[]>> {
  // Inline-only messages (a signature logo) have hasAttachments false: their HTML names cid:.
  const wanted = (m: Message) =>
    m.hasAttachments === true || (m.body?.contentType === "html" && (m.body.content ?? "").includes("cid:"));
  const ids = [...new Set(messages.flatMap((m) => (wanted(m) && m.id ? [m.id] : [])))];
  const out = new Map<string, AttachmentMeta[]>();
  if (ids.length === 0) return out;
  if (ids.length === 1) {
    // One message (getMessage): a plain GET holds one concurrency permit, a $batch all of them.
    const [id] = ids as [string];
    try {
      const list = await ctx.http.json<Collection<Attachment>>({
        method: "GET",
        url: `${ctx.api}${attachmentsUrl(id)}`,
      });
      out.set(id, mapGraphAttachments(list.value ?? []));
    } catch (err) {
      if (failureStatus(err) !== 404) throw err;
    }
    return out;
  }
  const answers = await runGraphBatch(
    ctx,
    ids.map((id, index) => ({ id: `a${index}`, method: "GET" as const, url: attachmentsUrl(id) })),
  );
  ids.forEach((id, index) => {
    const answer = answers.get(`a${index}`);
    if (answer?.status === 200)
      out.set(id, mapGraphAttachments((answer.body as Collection<Attachment>).value ?? []));
  });
  return out;
}

/** Graph messages in our terms, with the attachment metadata of those that have attachments. */
async function mapWithAttachments(
  ctx: OutlookContext,
  messages: readonly Message[],
  folders: FolderIds,
): Promise<ProviderMessage[]> {
  const attachments = await fetchAttachments(ctx, messages);
  return messages.map((message) => mapGraphMessage(message, folders, attachments.get(message.id ?? "")));
}

/** Full messages by id through $batch; ids that answer 404 (moved or deleted meanwhile) map to null. */
export async function fetchMessages(
  ctx: OutlookContext,
  ids: readonly string[],
): Promise<Map<string, ProviderMessage | null>> {
  const unique = [...new Set(ids)];
  const out = new Map<string, ProviderMessage | null>();
  if (unique.length === 0) return out;
  const folders = await folderIds(ctx);
  const answers = await runGraphBatch(
    ctx,
    unique.map((id, index) => ({
      id: `m${index}`,
      method: "GET" as const,
      url: `/me/messages/${checkGraphId(id)}?$select=${MESSAGE_SELECT}`,
      headers: PREFER_HTML,
    })),
  );
  const found = unique.flatMap((id, index) => {
    const answer = answers.get(`m${index}`);
    return answer?.status === 200 ? [{ id, message: answer.body as Message }] : [];
  });
  const mapped = await mapWithAttachments(
    ctx,
    found.map((f) => f.message),
    folders,
  );
  for (const id of unique) out.set(id, null);
  found.forEach(({ id }, index) => {
    out.set(id, mapped[index] ?? null);
  });
  return out;
}

export async function getMessage(ctx: OutlookContext, id: string): Promise<ProviderMessage | null> {
  const folders = await folderIds(ctx);
  try {
    const message = await ctx.http.json<Message>({
      method: "GET",
      url: `${ctx.api}/me/messages/${checkGraphId(id)}?$select=${MESSAGE_SELECT}`,
      headers: PREFER_HTML,
    });
    const [mapped] = await mapWithAttachments(ctx, [message], folders);
    return mapped ?? null;
  } catch (err) {
    if (failureStatus(err) === 404) return null;
    throw err;
  }
}

/** Copies of one message a move can hold: a sent copy, its received copy, rarely a duplicate. */
const MOVED_COPIES_TOP = "10";

/**
 * The messages carrying this RFC 5322 Message-ID, in whatever folder they are now: a move gives
 * a Graph message a new id but keeps its internetMessageId (an OData string literal doubles `'`).
 */
export async function findByInternetMessageId(
  ctx: OutlookContext,
  internetMessageId: string,
): Promise<ProviderMessage[]> {
  const folders = await folderIds(ctx);
  const query = odataQuery({
    $filter: `internetMessageId eq '${internetMessageId.replace(/'/g, "''")}'`,
    $select: MESSAGE_SELECT,
    $top: MOVED_COPIES_TOP,
  });
  const page = await ctx.http.json<Collection<Message>>({
    method: "GET",
    url: `${ctx.api}/me/messages?${query}`,
    headers: PREFER_HTML,
  });
  return mapWithAttachments(ctx, page.value ?? [], folders);
}

async function inboxFolder(ctx: OutlookContext): Promise<MailFolder> {
  return ctx.http.json<MailFolder>({
    method: "GET",
    url: `${ctx.api}/me/mailFolders/inbox?$select=id,totalItemCount,unreadItemCount`,
  });
}

export async function getProfile(
  ctx: OutlookContext,
): Promise<{ email: string; inboxTotal: number; inboxUnread: number }> {
  const [me, inbox] = await Promise.all([
    ctx.http.json<User>({ method: "GET", url: `${ctx.api}/me?$select=mail,userPrincipalName` }),
    inboxFolder(ctx),
  ]);
  return {
    email: me.mail ?? me.userPrincipalName ?? "",
    inboxTotal: inbox.totalItemCount ?? 0,
    inboxUnread: inbox.unreadItemCount ?? 0,
  };
}

/**
 * Page tokens say which of two listings we are in: `i <nextLink>` pages the inbox; with `since`,
 * `s` / `s <nextLink>` then pages all mail received since then that is not in the inbox (Graph
 * cannot OR two folders in one query). Links are followed as-is, after a host check.
 */
function parseToken(token: string | undefined): { phase: "inbox" | "since"; link?: string } {
  if (!token) return { phase: "inbox" };
  const [phase, link] = [token.slice(0, 1), token.slice(2)];
  if (phase !== "i" && phase !== "s")
    throw new ProviderRequestError("permanent", "invalid Outlook page token");
  return { phase: phase === "i" ? "inbox" : "since", ...(link ? { link } : {}) };
}

export async function listMessages(
  ctx: OutlookContext,
  opts: { pageToken?: string; pageSize: number; since?: Date },
): Promise<MessagePage> {
  const folders = await folderIds(ctx);
  const token = parseToken(opts.pageToken);
  const top = String(Math.min(1000, Math.max(1, Math.floor(opts.pageSize))));
  let url: string;
  if (token.link) url = checkGraphLink(ctx, token.link);
  else if (token.phase === "inbox") {
    const query = odataQuery({ $select: MESSAGE_SELECT, $top: top, $orderby: "receivedDateTime desc" });
    url = `${ctx.api}/me/mailFolders/inbox/messages?${query}`;
  } else {
    const since = (opts.since ?? new Date(0)).toISOString();
    const query = odataQuery({
      $select: MESSAGE_SELECT,
      $top: top,
      $filter: `receivedDateTime ge ${since}`,
      $orderby: "receivedDateTime desc",
    });
    url = `${ctx.api}/me/messages?${query}`;
  }
  const [page, inbox] = await Promise.all([
    ctx.http.json<Collection<Message>>({ method: "GET", url, headers: PREFER_HTML }),
    opts.pageToken ? Promise.resolve(undefined) : inboxFolder(ctx),
  ]);
  // The since-listing skips what the inbox pages already gave and what is not mail we list.
  const skip = new Set([folders.inbox, folders.junkemail, folders.deleteditems, folders.drafts]);
  const messages = await mapWithAttachments(
    ctx,
    (page.value ?? []).filter(
      (message) => token.phase === "inbox" || !skip.has(message.parentFolderId ?? ""),
    ),
    folders,
  );
  const nextLink = page["@odata.nextLink"];
  let nextPageToken: string | undefined;
  if (nextLink) nextPageToken = `${token.phase === "inbox" ? "i" : "s"} ${nextLink}`;
  else if (token.phase === "inbox" && opts.since) nextPageToken = "s";
  return {
    messages,
    ...(nextPageToken ? { nextPageToken } : {}),
    ...(inbox?.totalItemCount != null ? { totalEstimate: inbox.totalItemCount } : {}),
  };
}

/** Graph's attachment ids are base64 strings (with + / =), long but bounded. */
const GRAPH_ATTACHMENT_ID = /^[A-Za-z0-9+/=_-]{1,1024}$/;

function isCalendarAttachment(attachment: Attachment): boolean {
  const type = (attachment.contentType ?? "").split(";")[0]?.trim().toLowerCase();
  return type === "text/calendar" || type === "application/ics" || /\.ics$/i.test(attachment.name ?? "");
}

/**
 * The text of a message's first invitation attachment (text/calendar, application/ics or .ics),
 * or null when it has none, it is gone, or the file is over `maxBytes`: the listing carries
 * metadata only, then the one file is read. (Meeting requests Exchange turns into eventMessage
 * items carry no such file; decision 0039.)
 */
export async function getCalendarPart(
  ctx: OutlookContext,
  id: string,
  maxBytes: number,
): Promise<string | null> {
  try {
    const list = await ctx.http.json<Collection<Attachment>>({
      method: "GET",
      url: `${ctx.api}/me/messages/${checkGraphId(id)}/attachments?$select=${ATTACHMENT_SELECT}`,
    });
    const found = (list.value ?? []).find(isCalendarAttachment);
    if (!found?.id || (found.size ?? 0) > maxBytes * 2 || !GRAPH_ATTACHMENT_ID.test(found.id)) return null;
    const file = await ctx.http.json<Attachment & { contentBytes?: string }>({
      method: "GET",
      url: `${ctx.api}/me/messages/${checkGraphId(id)}/attachments/${encodeURIComponent(found.id)}`,
    });
    if (typeof file.contentBytes !== "string") return null;
    const bytes = Buffer.from(file.contentBytes, "base64");
    return bytes.length > maxBytes ? null : bytes.toString("utf8");
  } catch (err) {
    if (failureStatus(err) === 404) return null;
    throw err;
  }
}
