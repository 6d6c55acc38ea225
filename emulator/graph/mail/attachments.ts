import { createHash } from "node:crypto";
import type { Attachment, FileAttachment } from "@microsoft/microsoft-graph-types";
import type { FastifyInstance } from "fastify";
import { firstString } from "../../gmail/params.ts";
import { headerValue } from "../../mailbox/headers.ts";
import type { Mailbox, StoredMessage } from "../../mailbox/mailbox.ts";
import { decodedBytes, type MimePart, parseMime, toBinary } from "../../mailbox/mime.ts";
import { graphCaller } from "./caller.ts";
import { draftFilesOf, presentFile } from "./draft-attachments.ts";
import { sendKnownGraphError } from "./errors.ts";
import { attachmentParts, isInlinePart, parseSelect } from "./present.ts";

const ROOT = "https://graph.microsoft.com/v1.0";
/**
 * Graph sends contentBytes only for files up to 3 MB (its limit for inline content in a JSON
 * answer); bigger ones come through `/attachments/{id}/$value` alone.
 */
export const GRAPH_INLINE_CONTENT_LIMIT = 3 * 1024 * 1024;
const ID_PREFIX = "AAMkAtt";

type GraphAttachment = Attachment &
  Pick<FileAttachment, "contentBytes" | "contentId" | "contentLocation"> & {
    "@odata.type": string;
    "@odata.mediaContentType"?: string;
  };

/**
 * Attachment ids carry a digest of the message's current id, so they change when it moves, as
 * in Graph. (Not the whole id: Fastify refuses path parameters over 100 characters.)
 */
function attachmentId(message: StoredMessage, part: MimePart): string {
  return `${ID_PREFIX}${Buffer.from(`${messageDigest(message)}|${part.partId}`).toString("base64url")}=`;
}

function messageDigest(message: StoredMessage): string {
  return createHash("sha256").update(message.graphId).digest("base64url").slice(0, 16);
}

function partIdOf(message: StoredMessage, id: string): string | undefined {
  if (!id.startsWith(ID_PREFIX) || !id.endsWith("=")) return undefined;
  const decoded = Buffer.from(id.slice(ID_PREFIX.length, -1), "base64url").toString("utf8");
  const bar = decoded.indexOf("|");
  return bar > 0 && decoded.slice(0, bar) === messageDigest(message) ? decoded.slice(bar + 1) : undefined;
}

/**
 * One attachment as Graph presents it. `size` is the decoded content length (Exchange reports a
 * little more, counting its own properties; clients only show it). An attached message
 * (message/rfc822) is an itemAttachment without contentBytes, any other part a fileAttachment.
 */
function presentAttachment(message: StoredMessage, part: MimePart): GraphAttachment {
  const bytes = decodedBytes(part);
  const base = {
    id: attachmentId(message, part),
    lastModifiedDateTime: new Date(message.internalDate).toISOString().replace(/\.\d{3}Z$/, "Z"),
    name: part.filename || (part.mimeType === "message/rfc822" ? "Attached message" : "Untitled attachment"),
    contentType: part.mimeType,
    size: bytes.length,
    isInline: isInlinePart(part),
  };
  if (part.mimeType === "message/rfc822") {
    return { "@odata.type": "#microsoft.graph.itemAttachment", ...base };
  }
  const contentId = headerValue(part.headers, "content-id")?.replace(/^<|>$/g, "") ?? null;
  return {
    "@odata.type": "#microsoft.graph.fileAttachment",
    "@odata.mediaContentType": part.mimeType,
    ...base,
    contentId,
    contentLocation: null,
    ...(bytes.length > GRAPH_INLINE_CONTENT_LIMIT ? {} : { contentBytes: bytes.toString("base64") }),
  };
}

/** Trims to $select as Graph does: @odata.type and id always stay. */
function selectFields(
  attachment: GraphAttachment,
  select: ReadonlySet<string> | undefined,
): Record<string, unknown> {
  if (select === undefined) return { ...attachment };
  const out: Record<string, unknown> = { "@odata.type": attachment["@odata.type"], id: attachment.id };
  for (const [key, value] of Object.entries(attachment)) {
    if (select.has(key.toLowerCase())) out[key] = value;
  }
  return out;
}

function messageContext(mailbox: Mailbox, message: StoredMessage): string {
  return `${ROOT}/$metadata#users('${encodeURIComponent(mailbox.email)}')/messages('${encodeURIComponent(message.graphId)}')/attachments`;
}

/**
 * `GET /me/messages/{id}/attachments` (honouring $select, so a client can leave contentBytes
 * out) and `GET /me/messages/{id}/attachments/{attachmentId}`; both work inside $batch too.
 */
export function registerGraphAttachmentRoutes(app: FastifyInstance, now: () => number): void {
  app.get<{ Params: { id: string } }>(
    "/me/messages/:id/attachments",
    { config: { graphNeed: "read" } },
    (request, reply) => {
      const { mailbox } = graphCaller(request);
      const message = mailbox.getByGraphId(request.params.id);
      if (message === undefined) return sendKnownGraphError(reply, "notFound", now());
      const select = parseSelect(firstString((request.query as Record<string, unknown>).$select));
      const parts = attachmentParts(parseMime(toBinary(message.raw())));
      return {
        "@odata.context": messageContext(mailbox, message),
        value: [
          ...parts.map((part) => selectFields(presentAttachment(message, part), select)),
          // Files added to a draft (POST, upload session, createForward's copies) until it is sent.
          ...draftFilesOf(message).map((file) =>
            selectFields(presentFile(file, file.bytes.length <= GRAPH_INLINE_CONTENT_LIMIT), select),
          ),
        ],
      };
    },
  );

  app.get<{ Params: { id: string; attachmentId: string } }>(
    "/me/messages/:id/attachments/:attachmentId",
    { config: { graphNeed: "read" } },
    (request, reply) => {
      const { mailbox } = graphCaller(request);
      const message = mailbox.getByGraphId(request.params.id);
      if (message === undefined) return sendKnownGraphError(reply, "notFound", now());
      const select = parseSelect(firstString((request.query as Record<string, unknown>).$select));
      const file = draftFilesOf(message).find((f) => f.id === request.params.attachmentId);
      if (file !== undefined)
        return {
          "@odata.context": `${messageContext(mailbox, message)}/$entity`,
          ...selectFields(presentFile(file, file.bytes.length <= GRAPH_INLINE_CONTENT_LIMIT), select),
        };
      const partId = partIdOf(message, request.params.attachmentId);
      const part = attachmentParts(parseMime(toBinary(message.raw()))).find((p) => p.partId === partId);
      if (part === undefined) return sendKnownGraphError(reply, "notFound", now());
      return {
        "@odata.context": `${messageContext(mailbox, message)}/$entity`,
        ...selectFields(presentAttachment(message, part), select),
      };
    },
  );

  /**
   * `GET /me/messages/{id}/attachments/{attachmentId}/$value`: the raw bytes of a file, or the
   * MIME text of an attached message (itemAttachment), whatever its size.
   */
  app.get<{ Params: { id: string; attachmentId: string } }>(
    "/me/messages/:id/attachments/:attachmentId/$value",
    { config: { graphNeed: "read" } },
    (request, reply) => {
      const { mailbox } = graphCaller(request);
      const message = mailbox.getByGraphId(request.params.id);
      if (message === undefined) return sendKnownGraphError(reply, "notFound", now());
      const file = draftFilesOf(message).find((f) => f.id === request.params.attachmentId);
      if (file !== undefined)
        return reply
          .header("content-type", file.contentType)
          .header("content-length", String(file.bytes.length))
          .send(file.bytes);
      const partId = partIdOf(message, request.params.attachmentId);
      const part = attachmentParts(parseMime(toBinary(message.raw()))).find((p) => p.partId === partId);
      if (part === undefined) return sendKnownGraphError(reply, "notFound", now());
      const bytes = decodedBytes(part);
      return reply
        .header("content-type", part.mimeType === "message/rfc822" ? "message/rfc822" : part.mimeType)
        .header("content-length", String(bytes.length))
        .send(bytes);
    },
  );
}
