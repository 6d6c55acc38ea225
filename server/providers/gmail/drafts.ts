import type { gmail_v1 } from "@googleapis/gmail";
import { failureStatus, ProviderRequestError } from "../http/errors.ts";
import type {
  Address,
  AttachmentMeta,
  DraftFiles,
  DraftPage,
  OutgoingAttachment,
  OutgoingMessage,
  ProviderDraft,
} from "../mail-provider.ts";
import { parseAddresses } from "../mime/addresses.ts";
import { collect, withAttachments } from "../mime/mixed.ts";
import { openAttachment } from "./attachments.ts";
import type { GmailContext } from "./client.ts";
import { GMAIL_COSTS } from "./costs.ts";
import { checkId, mapWithBodies } from "./messages.ts";
import { rawMessage, relatedBody, uploadApi } from "./send.ts";

/**
 * users.drafts for compose's autosave and the Drafts list (issue 36). Ids here are DRAFT ids
 * ("r…"), which stay when drafts.update gives the draft a new message.
 */

/** drafts.create, or drafts.update of `draftId` (a draft gone meanwhile is created anew). */
export async function saveDraft(
  ctx: GmailContext,
  from: Address,
  message: OutgoingMessage,
  draftId?: string,
  files?: DraftFiles,
): Promise<{ draftId: string; attachments?: AttachmentMeta[] }> {
  // drafts.update replaces the whole message: the files kept are read from the current one.
  const attachments = files
    ? [...files.keep.map((meta) => keptFile(ctx, files.keepFrom, meta)), ...files.add]
    : [];
  const write = (update: boolean) =>
    attachments.length > 0
      ? uploadDraft(ctx, from, { ...message, attachments }, update ? draftId : undefined)
      : ctx.http.json<gmail_v1.Schema$Draft>({
          method: update ? "PUT" : "POST",
          url: update ? `${ctx.api}/drafts/${checkId(draftId ?? "")}` : `${ctx.api}/drafts`,
          body: update
            ? { id: draftId, message: rawMessage(from, message) }
            : { message: rawMessage(from, message) },
          weight: update ? GMAIL_COSTS.draftsUpdate : GMAIL_COSTS.draftsCreate,
        });
  let saved: gmail_v1.Schema$Draft | undefined;
  if (draftId !== undefined) {
    try {
      saved = await write(true);
    } catch (err) {
      // Deleted in Gmail (or sent from there) while compose was open: keep the text in a new draft.
      if (failureStatus(err) !== 404) throw err;
    }
  }
  saved ??= await write(false);
  if (!saved?.id) throw new ProviderRequestError("transient", "Gmail answered a draft without an id");
  if (!files) return { draftId: saved.id };
  // The new message's files, in the order they were written (kept, then added).
  const now = attachments.length > 0 ? await getDraft(ctx, saved.id) : null;
  return { draftId: saved.id, attachments: now?.message.attachments.filter((a) => !a.inline) ?? [] };
}

/** A file of the draft's current message, read from Gmail when the new message is written. */
function keptFile(ctx: GmailContext, messageId: string, meta: AttachmentMeta): OutgoingAttachment {
  return {
    fileName: meta.filename,
    contentType: meta.mimeType,
    size: meta.size,
    open: async () => (await openAttachment(ctx, messageId, meta)).body,
  };
}

/**
 * drafts.create / drafts.update through the upload endpoint (multipart/related: the Draft's JSON,
 * then the message/rfc822 with its files), as messages.send does for mail with files.
 */
async function uploadDraft(
  ctx: GmailContext,
  from: Address,
  message: OutgoingMessage,
  draftId: string | undefined,
): Promise<gmail_v1.Schema$Draft> {
  const { raw, threadId } = rawMessage(from, message);
  const text = Buffer.from(raw, "base64url").toString("utf8");
  const rfc822 = await collect(withAttachments(text, message.attachments ?? []));
  const meta = { ...(draftId ? { id: draftId } : {}), message: threadId ? { threadId } : {} };
  const { body, contentType } = relatedBody(meta, rfc822);
  return ctx.http.json<gmail_v1.Schema$Draft>({
    method: draftId ? "PUT" : "POST",
    url: `${uploadApi(ctx)}/drafts${draftId ? `/${checkId(draftId)}` : ""}?uploadType=multipart`,
    headers: { "content-type": contentType },
    body,
    weight: draftId ? GMAIL_COSTS.draftsUpdate : GMAIL_COSTS.draftsCreate,
  });
}

function bccOf(message: gmail_v1.Schema$Message): Address[] {
  const value = message.payload?.headers?.find((h) => h.name?.toLowerCase() === "bcc")?.value;
  return value ? parseAddresses(value) : [];
}

async function mapDrafts(ctx: GmailContext, drafts: gmail_v1.Schema$Draft[]): Promise<ProviderDraft[]> {
  const withMessages = drafts.filter(
    (d): d is gmail_v1.Schema$Draft & { id: string; message: gmail_v1.Schema$Message } =>
      typeof d.id === "string" && d.message !== undefined && d.message !== null,
  );
  const mapped = await mapWithBodies(
    ctx,
    withMessages.map((d) => d.message),
    "get",
  );
  return withMessages.flatMap((d, index) => {
    const message = mapped[index];
    return message ? [{ draftId: d.id, message, bcc: bccOf(d.message) }] : [];
  });
}

export async function getDraft(ctx: GmailContext, draftId: string): Promise<ProviderDraft | null> {
  try {
    const draft = await ctx.http.json<gmail_v1.Schema$Draft>({
      method: "GET",
      url: `${ctx.api}/drafts/${checkId(draftId)}?format=full`,
      weight: GMAIL_COSTS.draftsGet,
    });
    return (await mapDrafts(ctx, [draft]))[0] ?? null;
  } catch (err) {
    if (failureStatus(err) === 404) return null;
    throw err;
  }
}

/** drafts.list gives ids only: each draft is then read (format=full), a page at a time. */
export async function listDrafts(
  ctx: GmailContext,
  opts: { pageToken?: string; pageSize: number },
): Promise<DraftPage> {
  const query = new URLSearchParams({ maxResults: String(opts.pageSize) });
  if (opts.pageToken) query.set("pageToken", opts.pageToken);
  const listed = await ctx.http.json<gmail_v1.Schema$ListDraftsResponse>({
    method: "GET",
    url: `${ctx.api}/drafts?${query.toString()}`,
    weight: GMAIL_COSTS.draftsList,
  });
  const ids = (listed.drafts ?? []).flatMap((d) => (d.id ? [d.id] : []));
  // A draft deleted between the list and the read is simply not listed.
  const drafts = (await Promise.all(ids.map((id) => getDraft(ctx, id)))).filter(
    (d): d is ProviderDraft => d !== null,
  );
  return { drafts, ...(listed.nextPageToken ? { nextPageToken: listed.nextPageToken } : {}) };
}

export async function deleteDraft(ctx: GmailContext, draftId: string): Promise<void> {
  try {
    await ctx.http.request({
      method: "DELETE",
      url: `${ctx.api}/drafts/${checkId(draftId)}`,
      weight: GMAIL_COSTS.draftsDelete,
    });
  } catch (err) {
    if (failureStatus(err) !== 404) throw err;
  }
}

export async function sendDraft(ctx: GmailContext, draftId: string): Promise<{ providerId: string | null }> {
  const sent = await ctx.http.json<gmail_v1.Schema$Message>({
    method: "POST",
    url: `${ctx.api}/drafts/send`,
    body: { id: checkId(draftId) },
    weight: GMAIL_COSTS.draftsSend,
  });
  return { providerId: sent?.id ?? null };
}
