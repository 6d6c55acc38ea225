import type { gmail_v1 } from "@googleapis/gmail";
import type { FastifyInstance } from "fastify";
import { GMAIL_COSTS } from "../faults/quota.ts";
import { sendMessage } from "../mailbox/outgoing.ts";
import type { MailServices } from "../mailbox/services.ts";
import { gmailCaller } from "./caller.ts";
import { GMAIL_ERRORS, sendGoogleError } from "./errors.ts";

/**
 * Gmail's media upload of messages.send (`POST /upload/gmail/v1/users/{userId}/messages/send`):
 * `uploadType=media` with the message/rfc822 as the body, or `uploadType=multipart` with a
 * multipart/related body of the JSON metadata (threadId) and then the message. Gmail takes
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

export function registerGmailUploadRoutes(app: FastifyInstance, mail: MailServices): void {
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
        const body = Buffer.isBuffer(request.body) ? request.body : undefined;
        const contentType = String(request.headers["content-type"] ?? "");
        let raw: string;
        let threadId: string | undefined;
        if (request.query.uploadType === "media") {
          if (body === undefined)
            return sendGoogleError(reply, GMAIL_ERRORS.invalidArgument("Media type not supported"));
          raw = body.toString("utf8");
        } else if (request.query.uploadType === "multipart") {
          if (body === undefined || !contentType.toLowerCase().startsWith("multipart/related"))
            return sendGoogleError(
              reply,
              GMAIL_ERRORS.badRequest("Multipart upload needs multipart/related"),
            );
          const parsed = related(body, contentType);
          if (typeof parsed === "string") return sendGoogleError(reply, GMAIL_ERRORS.badRequest(parsed));
          raw = parsed.raw;
          threadId = typeof parsed.meta.threadId === "string" ? parsed.meta.threadId : undefined;
        } else {
          return sendGoogleError(reply, GMAIL_ERRORS.badRequest("Invalid uploadType"));
        }
        if (raw.trim() === "") return sendGoogleError(reply, GMAIL_ERRORS.invalidArgument("Empty message"));
        const sent = sendMessage(mail, gmailCaller(request).identity, raw, { threadId });
        if (sent === undefined) return sendGoogleError(reply, GMAIL_ERRORS.backendError());
        const out: gmail_v1.Schema$Message = {
          id: sent.id,
          threadId: sent.threadId,
          labelIds: [...sent.labels],
        };
        return out;
      },
    );
  });
}
