import type { gmail_v1 } from "@googleapis/gmail";
import { failureStatus, ProviderRequestError } from "../http/errors.ts";
import type { Address, DraftPage, OutgoingMessage, ProviderDraft } from "../mail-provider.ts";
import { parseAddresses } from "../mime/addresses.ts";
import type { GmailContext } from "./client.ts";
import { GMAIL_COSTS } from "./costs.ts";
import { checkId, mapWithBodies } from "./messages.ts";
import { rawMessage } from "./send.ts";

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
): Promise<{ draftId: string }> {
  const body = { message: rawMessage(from, message) };
  let saved: gmail_v1.Schema$Draft | undefined;
  if (draftId !== undefined) {
    try {
      saved = await ctx.http.json<gmail_v1.Schema$Draft>({
        method: "PUT",
        url: `${ctx.api}/drafts/${checkId(draftId)}`,
        body: { id: draftId, ...body },
        weight: GMAIL_COSTS.draftsUpdate,
      });
    } catch (err) {
      // Deleted in Gmail (or sent from there) while compose was open: keep the text in a new draft.
      if (failureStatus(err) !== 404) throw err;
    }
  }
  saved ??= await ctx.http.json<gmail_v1.Schema$Draft>({
    method: "POST",
    url: `${ctx.api}/drafts`,
    body,
    weight: GMAIL_COSTS.draftsCreate,
  });
  if (!saved?.id) throw new ProviderRequestError("transient", "Gmail answered a draft without an id");
  return { draftId: saved.id };
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
