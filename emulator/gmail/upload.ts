import type { gmail_v1 } from "@googleapis/gmail";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { GMAIL_COSTS } from "../faults/quota.ts";
import { sendMessage } from "../mailbox/outgoing.ts";
import type { MailServices } from "../mailbox/services.ts";
import { gmailCaller } from "./caller.ts";
import { createDraftMessage, messageOfDraft, presentDraft, replaceDraftMessage } from "./drafts.ts";
import { GMAIL_ERRORS, type GoogleApiErrorBody, sendGoogleError } from "./errors.ts";
import { bodyObject } from "./params.ts";

/**
 * Gmail's media upload of messages.send (`POST /upload/gmail/v1/users/{userId}/messages/send`),
 * drafts.create (`POST …/drafts`) and drafts.update (`PUT …/drafts/{id}`):
 * `uploadType=media` with the message/rfc822 as the body, or `uploadType=multipart` with a
 * multipart/related body of the JSON metadata (threadId; a Draft's message.threadId) and then the message. Gmail takes
 * messages up to 35 MB this way; more is 413.
 */
export const UPLOAD_MESSAGE_MAX = 35 * 1024 * 1024;

const BOUNDARY = /boundary="?([^";]{1,200})"?/i;

/** The metadata and message of a multipart/related body, or a reason it is not one. */
function related(body: Buffer, contentType: string): { meta: Record<string, unknown>; raw: string } | string {
  const boundary = BOUNDARY.exec(contentType)?.[1];
  if (boundary === undefined) return "Missing multipart boundary";
  const text = body.toString("latin1");
  const parts = text.split(`--${boundary}`).slice(1, -1);
  if (parts.length !== 2) return "Expected a metadata part and a media part";
  const [metaPart, mediaPart] = parts.map((part) => {
    const start = part.indexOf("\r\n\r\n");
    return start < 0 ? "" : part.slice(start + 4).replace(/\r\n$/, "");
  });
  let meta: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(Buffer.from(metaPart ?? "", "latin1").toString("utf8") || "{}");
    if (parsed && typeof parsed === "object") meta = parsed as Record<string, unknown>;
  } catch {
    return "Invalid JSON metadata part";
  }
  return { meta, raw: Buffer.from(mediaPart ?? "", "latin1").toString("utf8") };
}

type UploadRequest = FastifyRequest<{ Querystring: { uploadType?: string } }>;

/** The uploaded message and its JSON metadata (multipart), or the error Gmail answers. */
function uploaded(
  request: UploadRequest,
): { raw: string; meta: Record<string, unknown> } | GoogleApiErrorBody {
  const body = Buffer.isBuffer(request.body) ? request.body : undefined;
  const contentType = String(request.headers["content-type"] ?? "");
  let raw: string;
  let meta: Record<string, unknown> = {};
  if (request.query.uploadType === "media") {
    if (body === undefined) return GMAIL_ERRORS.invalidArgument("Media type not supported");
    raw = body.toString("utf8");
  } else if (request.query.uploadType === "multipart") {
    if (body === undefined || !contentType.toLowerCase().startsWith("multipart/related"))
      return GMAIL_ERRORS.badRequest("Multipart upload needs multipart/related");
    const parsed = related(body, contentType);
    if (typeof parsed === "string") return GMAIL_ERRORS.badRequest(parsed);
    ({ raw, meta } = parsed);
  } else {
    return GMAIL_ERRORS.badRequest("Invalid uploadType");
  }
  if (raw.trim() === "") return GMAIL_ERRORS.invalidArgument("Empty message");
  return { raw, meta };
}

/** A Draft resource's message.threadId in the metadata part. */
function draftThreadId(meta: Record<string, unknown>): string | undefined {
  const threadId = bodyObject(meta.message).threadId;
  return typeof threadId === "string" ? threadId : undefined;
}

export function registerGmailUploadRoutes(app: FastifyInstance, mail: MailServices): void {
  const now = () => mail.context.clock.now();
  void app.register(async (scope) => {
    for (const type of ["message/rfc822", "multipart/related"]) {
      scope.addContentTypeParser(
        type,
        { parseAs: "buffer", bodyLimit: UPLOAD_MESSAGE_MAX },
        (_r, body, done) => done(null, body),
      );
    }
    scope.post<{ Querystring: { uploadType?: string } }>(
      "/upload/gmail/v1/users/:userId/messages/send",
      { config: { gmailCost: GMAIL_COSTS.messagesSend, gmailNeed: "send" }, bodyLimit: UPLOAD_MESSAGE_MAX },
      (request, reply) => {
        const input = uploaded(request);
        if (!("raw" in input)) return sendGoogleError(reply, input);
        const threadId = typeof input.meta.threadId === "string" ? input.meta.threadId : undefined;
        const sent = sendMessage(mail, gmailCaller(request).identity, input.raw, { threadId });
        if (sent === undefined) return sendGoogleError(reply, GMAIL_ERRORS.backendError());
        const out: gmail_v1.Schema$Message = {
          id: sent.id,
          threadId: sent.threadId,
          labelIds: [...sent.labels],
        };
        return out;
      },
    );

    // drafts.create and drafts.update by upload: a draft with files is bigger than a JSON `raw` takes.
    scope.post<{ Querystring: { uploadType?: string } }>(
      "/upload/gmail/v1/users/:userId/drafts",
      {
        config: { gmailCost: GMAIL_COSTS.draftsCreate, gmailNeed: "compose" },
        bodyLimit: UPLOAD_MESSAGE_MAX,
      },
      (request, reply) => {
        const input = uploaded(request);
        if (!("raw" in input)) return sendGoogleError(reply, input);
        const { mailbox } = gmailCaller(request);
        return presentDraft(
          createDraftMessage(mailbox, now(), { raw: input.raw, threadId: draftThreadId(input.meta) }),
        );
      },
    );

    scope.put<{ Params: { userId: string; id: string }; Querystring: { uploadType?: string } }>(
      "/upload/gmail/v1/users/:userId/drafts/:id",
      {
        config: { gmailCost: GMAIL_COSTS.draftsUpdate, gmailNeed: "compose" },
        bodyLimit: UPLOAD_MESSAGE_MAX,
      },
      (request, reply) => {
        const { mailbox } = gmailCaller(request);
        const old = messageOfDraft(mailbox, request.params.id);
        if (old === undefined) return sendGoogleError(reply, GMAIL_ERRORS.notFound());
        const input = uploaded(request);
        if (!("raw" in input)) return sendGoogleError(reply, input);
        return presentDraft(
          replaceDraftMessage(mailbox, now(), old, { raw: input.raw, threadId: draftThreadId(input.meta) }),
        );
      },
    );
  });
}
