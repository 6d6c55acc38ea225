import { GRAPH_INLINE_ATTACHMENT_MAX } from "../../../contract/compose.ts";
import { ProviderRequestError } from "../http/errors.ts";
import type { OutgoingAttachment } from "../mail-provider.ts";
import { checkGraphId, type OutlookContext } from "./client.ts";
import { classifyGraphError } from "./errors.ts";

/**
 * Files onto a Graph draft (issue 36). Up to 3 MB a file goes inline as a fileAttachment
 * (contentBytes); bigger ones through an upload session: createUploadSession, then the bytes PUT
 * to its uploadUrl in ranges (Content-Range), each answered 200 with nextExpectedRanges and the
 * last 201. Only one range is in memory at a time, so a 150 MB file never is.
 */

/** Graph asks for ranges in multiples of 320 KiB, under 60 MiB; ten of them is 3.125 MiB. */
export const UPLOAD_RANGE_BYTES = 10 * 320 * 1024;
const RANGE_TIMEOUT_MS = 60_000;
const RANGE_TRIES = 3;

interface UploadSession {
  uploadUrl?: string;
  nextExpectedRanges?: string[];
}

async function readAll(stream: NodeJS.ReadableStream, max: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > max) throw new ProviderRequestError("permanent", "attachment grew while sending");
    parts.push(chunk as Buffer);
  }
  return Buffer.concat(parts);
}

/** Fixed-size ranges of a stream (the last one shorter). */
async function* ranges(stream: NodeJS.ReadableStream, size: number): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let held = 0;
  for await (const chunk of stream) {
    let data = chunk as Buffer;
    while (held + data.length >= size) {
      const take = size - held;
      pending.push(data.subarray(0, take));
      yield Buffer.concat(pending);
      pending = [];
      held = 0;
      data = data.subarray(take);
    }
    if (data.length > 0) {
      pending.push(Buffer.from(data));
      held += data.length;
    }
  }
  if (held > 0) yield Buffer.concat(pending);
}

/**
 * The uploadUrl is pre-authenticated: Graph asks that no Authorization header go with it. It is
 * followed only over HTTPS or to the configured Graph origin (the emulator).
 */
function checkUploadUrl(ctx: OutlookContext, link: string | undefined): string {
  if (!link) throw new ProviderRequestError("transient", "Graph answered an upload session without a URL");
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    throw new ProviderRequestError("permanent", "Graph upload URL is not a URL");
  }
  if (url.protocol !== "https:" && url.origin !== new URL(ctx.api).origin)
    throw new ProviderRequestError("permanent", "Graph upload URL is neither HTTPS nor Graph's origin");
  return url.href;
}

async function putRange(url: string, bytes: Buffer, start: number, total: number): Promise<void> {
  let last: ProviderRequestError | undefined;
  for (let attempt = 1; attempt <= RANGE_TRIES; attempt += 1) {
    try {
      const response = await fetch(url, {
        method: "PUT",
        headers: {
          "content-type": "application/octet-stream",
          "content-range": `bytes ${start}-${start + bytes.length - 1}/${total}`,
        },
        body: bytes,
        redirect: "manual",
        signal: AbortSignal.timeout(RANGE_TIMEOUT_MS),
      });
      const text = await response.text();
      if (response.status === 200 || response.status === 201 || response.status === 202) return;
      last = classifyGraphError({ status: response.status, headers: response.headers, text });
      if (last.kind === "permanent" || last.kind === "reauth") throw last;
    } catch (err) {
      if (err instanceof ProviderRequestError && (err.kind === "permanent" || err.kind === "reauth"))
        throw err;
      last =
        err instanceof ProviderRequestError
          ? err
          : new ProviderRequestError("transient", "Graph upload range failed", {}, { cause: err });
    }
  }
  throw last ?? new ProviderRequestError("transient", "Graph upload range failed");
}

async function uploadLarge(ctx: OutlookContext, draftId: string, file: OutgoingAttachment): Promise<void> {
  const session = await ctx.http.json<UploadSession>({
    method: "POST",
    url: `${ctx.api}/me/messages/${checkGraphId(draftId)}/attachments/createUploadSession`,
    body: {
      AttachmentItem: {
        attachmentType: "file",
        name: file.fileName,
        size: file.size,
        contentType: file.contentType,
      },
    },
  });
  const url = checkUploadUrl(ctx, session?.uploadUrl);
  let start = 0;
  for await (const range of ranges(await file.open(), UPLOAD_RANGE_BYTES)) {
    if (start + range.length > file.size)
      throw new ProviderRequestError("permanent", "attachment grew while sending");
    await putRange(url, range, start, file.size);
    start += range.length;
  }
  if (start !== file.size) throw new ProviderRequestError("permanent", "attachment shrank while sending");
}

/** Attaches every file to the draft, small ones inline, the rest by upload session. */
export async function attachFiles(
  ctx: OutlookContext,
  draftId: string,
  files: readonly OutgoingAttachment[],
): Promise<void> {
  for (const file of files) {
    if (file.size > GRAPH_INLINE_ATTACHMENT_MAX) {
      await uploadLarge(ctx, draftId, file);
      continue;
    }
    const bytes = await readAll(await file.open(), GRAPH_INLINE_ATTACHMENT_MAX);
    await ctx.http.request({
      method: "POST",
      url: `${ctx.api}/me/messages/${checkGraphId(draftId)}/attachments`,
      body: {
        "@odata.type": "#microsoft.graph.fileAttachment",
        name: file.fileName,
        contentType: file.contentType,
        contentBytes: bytes.toString("base64"),
      },
    });
  }
}
