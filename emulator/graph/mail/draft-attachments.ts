import { randomBytes } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { emulatorBaseUrl } from "../../context.ts";
import { bodyObject } from "../../gmail/params.ts";
import type { Mailbox, StoredMessage } from "../../mailbox/mailbox.ts";
import type { MailServices } from "../../mailbox/services.ts";
import { graphCaller } from "./caller.ts";
import { sendGraphError, sendKnownGraphError } from "./errors.ts";

/**
 * Files added to a draft (Graph `POST /me/messages/{id}/attachments` with a fileAttachment, or
 * an upload session for bigger ones): held beside the draft until it is sent, when they become
 * the parts of its multipart/mixed (messages.ts /send reads them).
 *
 * Upload sessions follow Graph's documented shapes: createUploadSession answers 201 with
 * `uploadUrl`, `expirationDateTime` and `nextExpectedRanges: ["0-"]`; each PUT of a byte range
 * (Content-Range `bytes a-b/total`, no Authorization: the URL carries its own token) answers 200
 * with the next expected range, the last one 201 with a Location and no body; a range not starting
 * where expected is 416, a session unknown or expired 404, DELETE cancels it (204).
 */

export interface DraftFile {
  id: string;
  name: string;
  contentType: string;
  bytes: Buffer;
}

/** Graph's limits: 150 MB by upload session; a request body with contentBytes up to 4 MB. */
export const SESSION_FILE_MAX = 150 * 1024 * 1024;
const INLINE_REQUEST_MAX = 4 * 1024 * 1024;
/** Each PUT may carry up to 60 MiB. */
const RANGE_MAX = 60 * 1024 * 1024;
const SESSION_MS = 15 * 60_000;

const files = new WeakMap<StoredMessage, DraftFile[]>();

interface Session {
  token: string;
  mailbox: Mailbox;
  draft: StoredMessage;
  name: string;
  contentType: string;
  size: number;
  received: Buffer[];
  next: number;
  expires: number;
}
const sessions = new Map<string, Session>();

/** The files a draft carries, for its send. */
export function draftFilesOf(draft: StoredMessage): readonly DraftFile[] {
  return files.get(draft) ?? [];
}

/** Adds a file to a draft (a POST, a finished upload session, createForward's copies of the original's). */
export function attach(draft: StoredMessage, file: Omit<DraftFile, "id">): DraftFile {
  const added = { ...file, id: `AAMk${randomBytes(18).toString("base64url")}` };
  files.set(draft, [...(files.get(draft) ?? []), added]);
  return added;
}

/** Takes a file off a draft; false when the draft has no file with that id. */
export function detach(draft: StoredMessage, id: string): boolean {
  const held = files.get(draft) ?? [];
  const kept = held.filter((f) => f.id !== id);
  files.set(draft, kept);
  return kept.length < held.length;
}

/** A draft's file as Graph presents a fileAttachment (contentBytes only when `withBytes`). */
export function presentFile(file: DraftFile, withBytes = false) {
  return {
    "@odata.type": "#microsoft.graph.fileAttachment",
    id: file.id,
    name: file.name,
    contentType: file.contentType,
    size: file.bytes.length,
    isInline: false,
    ...(withBytes ? { contentBytes: file.bytes.toString("base64") } : {}),
  };
}

/** The routes under the Graph scope (bearer-authenticated). */
export function registerGraphDraftAttachmentRoutes(app: FastifyInstance, mail: MailServices): void {
  const now = () => mail.context.clock.now();
  const invalid = (reply: FastifyReply, message: string) =>
    sendGraphError(reply, 400, "ErrorInvalidArgument", message, now());

  /** The draft a file is added to; 404 for an unknown id, 400 for a message that is not a draft. */
  function draftOf(request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) {
    const { mailbox } = graphCaller(request);
    const draft = mailbox.getByGraphId(request.params.id);
    if (draft === undefined) sendKnownGraphError(reply, "notFound", now());
    else if (!draft.labels.has("DRAFT"))
      sendGraphError(reply, 400, "ErrorInvalidOperation", "Attachments can be added to drafts only.", now());
    else return { mailbox, draft };
    return undefined;
  }

  app.post<{ Params: { id: string } }>(
    "/me/messages/:id/attachments",
    { config: { graphNeed: "write" }, bodyLimit: INLINE_REQUEST_MAX + 64 * 1024 },
    (request, reply) => {
      const found = draftOf(request, reply);
      if (found === undefined) return reply;
      const { draft } = found;
      const body = bodyObject(request.body);
      if (body["@odata.type"] !== "#microsoft.graph.fileAttachment")
        return invalid(reply, "Only file attachments are supported.");
      if (typeof body.name !== "string" || body.name === "" || typeof body.contentBytes !== "string")
        return invalid(reply, "The name and contentBytes are required.");
      const file = attach(draft, {
        name: body.name,
        contentType: typeof body.contentType === "string" ? body.contentType : "application/octet-stream",
        bytes: Buffer.from(body.contentBytes, "base64"),
      });
      return reply.code(201).send(presentFile(file));
    },
  );

  // DELETE /me/messages/{id}/attachments/{attachmentId}: 204, or 404 for a file the draft lacks.
  app.delete<{ Params: { id: string; attachmentId: string } }>(
    "/me/messages/:id/attachments/:attachmentId",
    { config: { graphNeed: "write" } },
    (request, reply) => {
      const draft = graphCaller(request).mailbox.getByGraphId(request.params.id);
      if (draft === undefined || !detach(draft, request.params.attachmentId))
        return sendKnownGraphError(reply, "notFound", now());
      return reply.code(204).send();
    },
  );

  app.post<{ Params: { id: string } }>(
    "/me/messages/:id/attachments/createUploadSession",
    { config: { graphNeed: "write" } },
    (request, reply) => {
      const found = draftOf(request, reply);
      if (found === undefined) return reply;
      const { mailbox, draft } = found;
      const item = bodyObject(bodyObject(request.body).AttachmentItem);
      const size = item.size;
      if (
        item.attachmentType !== "file" ||
        typeof item.name !== "string" ||
        item.name === "" ||
        typeof size !== "number" ||
        !Number.isInteger(size) ||
        size <= 0
      )
        return invalid(reply, "AttachmentItem needs attachmentType 'file', a name and a size.");
      if (size > SESSION_FILE_MAX)
        return sendGraphError(
          reply,
          400,
          "ErrorAttachmentSizeLimitExceeded",
          "The attachment size exceeds the maximum of 150 MB.",
          now(),
        );
      const id = randomBytes(16).toString("hex");
      const session: Session = {
        token: randomBytes(24).toString("base64url"),
        mailbox,
        draft,
        name: item.name,
        contentType: typeof item.contentType === "string" ? item.contentType : "application/octet-stream",
        size,
        received: [],
        next: 0,
        expires: now() + SESSION_MS,
      };
      sessions.set(id, session);
      const base = emulatorBaseUrl(mail.context, request);
      return reply.code(201).send({
        "@odata.context": "https://graph.microsoft.com/v1.0/$metadata#microsoft.graph.uploadSession",
        uploadUrl: `${base}/outlook.office.com/api/v2.0/AttachmentSessions/${id}?authtoken=${session.token}`,
        expirationDateTime: new Date(session.expires).toISOString(),
        nextExpectedRanges: ["0-"],
      });
    },
  );
}

const RANGE = /^bytes (\d{1,12})-(\d{1,12})\/(\d{1,12})$/;

/** The pre-authenticated upload URL (outside the bearer-checked Graph scope). */
export function registerGraphUploadSessionRoutes(app: FastifyInstance, mail: MailServices): void {
  const now = () => mail.context.clock.now();
  void app.register(async (scope) => {
    scope.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: RANGE_MAX }, (_request, body, done) =>
      done(null, body),
    );

    const sessionOf = (id: string, token: unknown): Session | undefined => {
      const session = sessions.get(id);
      if (session === undefined || session.token !== token) return undefined;
      if (session.expires < now()) {
        sessions.delete(id);
        return undefined;
      }
      return session;
    };

    scope.put<{ Params: { id: string }; Querystring: { authtoken?: string } }>(
      "/outlook.office.com/api/v2.0/AttachmentSessions/:id",
      (request, reply) => {
        const session = sessionOf(request.params.id, request.query.authtoken);
        if (session === undefined)
          return sendGraphError(
            reply,
            404,
            "ErrorItemNotFound",
            "The upload session was not found or expired.",
            now(),
          );
        const range = RANGE.exec(String(request.headers["content-range"] ?? ""));
        const bytes = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        if (range === null)
          return sendGraphError(
            reply,
            400,
            "ErrorInvalidRequest",
            "A valid Content-Range header is required.",
            now(),
          );
        const [start, end, total] = [Number(range[1]), Number(range[2]), Number(range[3])];
        if (total !== session.size || end < start || end >= total || end - start + 1 !== bytes.length)
          return sendGraphError(
            reply,
            400,
            "ErrorInvalidRequest",
            "The Content-Range does not match the session size or the body.",
            now(),
          );
        if (start !== session.next)
          return reply.code(416).send({
            error: { code: "InvalidRange", message: "The range does not start at the next expected byte." },
            nextExpectedRanges: [`${session.next}-`],
          });
        session.received.push(Buffer.from(bytes));
        session.next = end + 1;
        if (session.next < session.size) {
          return reply.code(200).send({
            expirationDateTime: new Date(session.expires).toISOString(),
            nextExpectedRanges: [`${session.next}-`],
          });
        }
        sessions.delete(request.params.id);
        const file = attach(session.draft, {
          name: session.name,
          contentType: session.contentType,
          bytes: Buffer.concat(session.received),
        });
        const base = emulatorBaseUrl(mail.context, request);
        return reply
          .code(201)
          .header(
            "location",
            `${base}/graph.microsoft.com/v1.0/me/messages/${encodeURIComponent(session.draft.graphId)}/attachments/${file.id}`,
          )
          .send();
      },
    );

    scope.delete<{ Params: { id: string }; Querystring: { authtoken?: string } }>(
      "/outlook.office.com/api/v2.0/AttachmentSessions/:id",
      (request, reply) => {
        if (sessionOf(request.params.id, request.query.authtoken) === undefined)
          return sendGraphError(
            reply,
            404,
            "ErrorItemNotFound",
            "The upload session was not found or expired.",
            now(),
          );
        sessions.delete(request.params.id);
        return reply.code(204).send();
      },
    );
  });
}
