import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import type { Attachment } from "@microsoft/microsoft-graph-types";
import { failureStatus, ProviderRequestError } from "../http/errors.ts";
import type { AttachmentDownload, AttachmentLocation } from "../mail-provider.ts";
import { checkGraphId, type OutlookContext } from "./client.ts";
import { ATTACHMENT_SELECT, mapGraphAttachments } from "./mapper.ts";
import { type Collection, odataQuery } from "./messages.ts";

const gone = () => new ProviderRequestError("permanent", "Graph attachment not found", { status: 404 });

async function streamValue(
  ctx: OutlookContext,
  messageId: string,
  attachmentId: string,
): Promise<AttachmentDownload> {
  const response = await ctx.http.stream({
    method: "GET",
    url: `${ctx.api}/me/messages/${checkGraphId(messageId)}/attachments/${encodeURIComponent(attachmentId)}/$value`,
  });
  if (!response.body) throw gone();
  const length = Number(response.headers.get("content-length"));
  return {
    body: Readable.fromWeb(response.body as WebReadableStream<Uint8Array>),
    size: Number.isSafeInteger(length) && length >= 0 ? length : null,
  };
}

/**
 * An attachment's bytes through Graph's `$value` (files of any size; the MIME text of an
 * attached message). Graph gives attachments new ids when their message moves; when the stored
 * one is refused, the message's list finds it again by our id.
 */
export async function openAttachment(
  ctx: OutlookContext,
  messageId: string,
  at: AttachmentLocation,
): Promise<AttachmentDownload> {
  if (at.ref) {
    try {
      return await streamValue(ctx, messageId, at.ref);
    } catch (err) {
      if (failureStatus(err) !== 404 || at.id === undefined) throw err;
    }
  }
  let list: Collection<Attachment>;
  try {
    list = await ctx.http.json<Collection<Attachment>>({
      method: "GET",
      url: `${ctx.api}/me/messages/${checkGraphId(messageId)}/attachments?${odataQuery({ $select: ATTACHMENT_SELECT })}`,
    });
  } catch (err) {
    if (failureStatus(err) === 404) throw gone();
    throw err;
  }
  const found = mapGraphAttachments(list.value ?? []).find((a) => a.id === at.id);
  if (found?.ref === undefined || found.ref === at.ref) throw gone();
  return streamValue(ctx, messageId, found.ref);
}
