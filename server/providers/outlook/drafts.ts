import type { Message, Recipient } from "@microsoft/microsoft-graph-types";
import { failureStatus } from "../http/errors.ts";
import type {
  Address,
  AttachmentMeta,
  DraftFiles,
  DraftPage,
  OutgoingMessage,
  ProviderDraft,
} from "../mail-provider.ts";
import { attachFiles } from "./attachments-send.ts";
import { checkGraphId, checkGraphLink, type OutlookContext } from "./client.ts";
import { MESSAGE_SELECT } from "./mapper.ts";
import { type Collection, folderIds, mapWithAttachments, odataQuery, PREFER_HTML } from "./messages.ts";
import { createDraft, deleteFiles, graphMessage } from "./send.ts";

/**
 * Graph draft messages for compose's autosave and the Drafts list (issue 36). A draft's id is its
 * message id, which stays while it sits in Drafts (only a move changes a Graph id).
 */

const DRAFT_SELECT = `${MESSAGE_SELECT},bccRecipients`;

function bccOf(message: Message): Address[] {
  return (message.bccRecipients ?? []).flatMap((r: Recipient) =>
    r.emailAddress?.address ? [{ name: r.emailAddress.name ?? "", address: r.emailAddress.address }] : [],
  );
}

async function mapDrafts(ctx: OutlookContext, messages: Message[]): Promise<ProviderDraft[]> {
  const drafts = messages.filter((m): m is Message & { id: string } => m.isDraft === true && !!m.id);
  const mapped = await mapWithAttachments(ctx, drafts, await folderIds(ctx));
  return drafts.flatMap((m, index) => {
    const message = mapped[index];
    return message ? [{ draftId: m.id, message, bcc: bccOf(m) }] : [];
  });
}

/** PATCH of `draftId`, or a new draft (createReply when replying, so Outlook threads it). */
export async function saveDraft(
  ctx: OutlookContext,
  message: OutgoingMessage,
  draftId?: string,
  files?: DraftFiles,
): Promise<{ draftId: string; attachments?: AttachmentMeta[] }> {
  let saved: string | undefined;
  if (draftId !== undefined) {
    try {
      await ctx.http.request({
        method: "PATCH",
        url: `${ctx.api}/me/messages/${checkGraphId(draftId)}`,
        body: graphMessage(message),
      });
      saved = draftId;
    } catch (err) {
      // Deleted in Outlook while compose was open: keep the text in a new draft.
      if (failureStatus(err) !== 404) throw err;
    }
  }
  // A new draft holds none of the old one's files (a forward's copies are dropped when made).
  const kept = saved !== undefined ? (files?.keep ?? []) : [];
  saved ??= (await createDraft(ctx, message)).providerId;
  if (!files) return { draftId: saved };
  // Graph keeps a draft's files through a PATCH: the ones not kept go, the new ones are added.
  const keepIds = new Set(kept.flatMap((meta) => (meta.ref ? [meta.ref] : [])));
  await deleteFiles(ctx, saved, (id) => !keepIds.has(id));
  if (kept.length === 0 && files.add.length === 0) return { draftId: saved, attachments: [] };
  await attachFiles(ctx, saved, files.add);
  const after = (await getDraft(ctx, saved))?.message.attachments.filter((a) => !a.inline) ?? [];
  const keptAfter = kept.flatMap((meta) => after.filter((a) => a.ref === meta.ref));
  return { draftId: saved, attachments: [...keptAfter, ...after.filter((a) => !keepIds.has(a.ref ?? ""))] };
}

export async function getDraft(ctx: OutlookContext, draftId: string): Promise<ProviderDraft | null> {
  try {
    const message = await ctx.http.json<Message>({
      method: "GET",
      url: `${ctx.api}/me/messages/${checkGraphId(draftId)}?${odataQuery({ $select: DRAFT_SELECT })}`,
      headers: PREFER_HTML,
    });
    return (await mapDrafts(ctx, [message]))[0] ?? null;
  } catch (err) {
    if (failureStatus(err) === 404) return null;
    throw err;
  }
}

/** The Drafts folder newest first; the page token is Graph's nextLink (checked to stay on Graph). */
export async function listDrafts(
  ctx: OutlookContext,
  opts: { pageToken?: string; pageSize: number },
): Promise<DraftPage> {
  const top = String(Math.min(1000, Math.max(1, Math.floor(opts.pageSize))));
  const url = opts.pageToken
    ? checkGraphLink(ctx, opts.pageToken)
    : `${ctx.api}/me/mailFolders/drafts/messages?${odataQuery({
        $select: DRAFT_SELECT,
        $top: top,
        $orderby: "receivedDateTime desc",
      })}`;
  const page = await ctx.http.json<Collection<Message>>({ method: "GET", url, headers: PREFER_HTML });
  const drafts = await mapDrafts(ctx, page.value ?? []);
  const next = page["@odata.nextLink"];
  return { drafts, ...(next ? { nextPageToken: next } : {}) };
}

/** DELETE (Outlook moves it to Deleted Items, out of Drafts); one already gone counts as deleted. */
export async function deleteDraft(ctx: OutlookContext, draftId: string): Promise<void> {
  try {
    await ctx.http.request({ method: "DELETE", url: `${ctx.api}/me/messages/${checkGraphId(draftId)}` });
  } catch (err) {
    if (failureStatus(err) !== 404) throw err;
  }
}

/** POST /me/messages/{id}/send (202, no body): the draft leaves Drafts for Sent Items. */
export async function sendDraft(ctx: OutlookContext, draftId: string): Promise<{ providerId: null }> {
  await ctx.http.request({ method: "POST", url: `${ctx.api}/me/messages/${checkGraphId(draftId)}/send` });
  return { providerId: null };
}
