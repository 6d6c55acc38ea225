import { Readable } from "node:stream";
import type { gmail_v1 } from "@googleapis/gmail";
import { JsonDataDecoder } from "../download/json-data-stream.ts";
import { failureStatus, ProviderRequestError } from "../http/errors.ts";
import type { AttachmentDownload, AttachmentLocation } from "../mail-provider.ts";
import type { GmailContext } from "./client.ts";
import { GMAIL_COSTS } from "./costs.ts";
import { checkId } from "./messages.ts";

const ATTACHMENT_ID = /^[A-Za-z0-9_-]{1,4096}$/;
const PART_ID = /^[0-9.]{0,64}$/;

const gone = () => new ProviderRequestError("permanent", "Gmail attachment not found", { status: 404 });

/** attachments.get, its base64url data decoded while it streams in. */
async function streamGet(
  ctx: GmailContext,
  messageId: string,
  attachmentId: string,
): Promise<AttachmentDownload> {
  if (!ATTACHMENT_ID.test(attachmentId)) throw gone();
  const response = await ctx.http.stream({
    method: "GET",
    url: `${ctx.api}/messages/${checkId(messageId)}/attachments/${attachmentId}`,
    weight: GMAIL_COSTS.attachmentsGet,
  });
  if (!response.body) throw gone();
  const body = Readable.fromWeb(response.body as import("node:stream/web").ReadableStream<Uint8Array>);
  const decoded = body.pipe(new JsonDataDecoder());
  // A failing source fails the decoded stream too, so the client sees the download end badly.
  body.on("error", (err) => decoded.destroy(err));
  decoded.on("close", () => body.destroy());
  return { body: decoded, size: null };
}

function findPart(
  part: gmail_v1.Schema$MessagePart | undefined,
  partId: string,
  depth = 0,
): gmail_v1.Schema$MessagePart | undefined {
  if (part === undefined || depth > 20) return undefined;
  if ((part.partId ?? "") === partId) return part;
  for (const child of part.parts ?? []) {
    const found = findPart(child, partId, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * An attachment's bytes: through the attachmentId sync saw, and when Gmail no longer takes it
 * (its attachment ids change between fetches), through the part's id in a fresh format=full read.
 */
export async function openAttachment(
  ctx: GmailContext,
  messageId: string,
  at: AttachmentLocation,
): Promise<AttachmentDownload> {
  if (at.fetchId) {
    try {
      return await streamGet(ctx, messageId, at.fetchId);
    } catch (err) {
      const status = failureStatus(err);
      if (status !== 404 && status !== 400) throw err;
    }
  }
  if (at.ref === undefined || !PART_ID.test(at.ref)) throw gone();
  let message: gmail_v1.Schema$Message;
  try {
    message = await ctx.http.json<gmail_v1.Schema$Message>({
      method: "GET",
      url: `${ctx.api}/messages/${checkId(messageId)}?format=full&fields=payload`,
      weight: GMAIL_COSTS.messagesGet,
    });
  } catch (err) {
    if (failureStatus(err) === 404) throw gone();
    throw err;
  }
  const part = findPart(message.payload ?? undefined, at.ref);
  const data = part?.body?.data;
  if (typeof data === "string") {
    const bytes = Buffer.from(data, "base64url");
    return { body: Readable.from([bytes]), size: bytes.length };
  }
  const attachmentId = part?.body?.attachmentId;
  if (!attachmentId) throw gone();
  return streamGet(ctx, messageId, attachmentId);
}
