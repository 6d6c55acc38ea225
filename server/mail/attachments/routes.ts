import type { FastifyInstance } from "fastify";
import { sessionOf } from "../../http/auth-guard.ts";
import { DomainError } from "../../http/errors.ts";
import { idParam } from "../validation.ts";
import { attachmentHeaders } from "./http-headers.ts";
import type { AttachmentLinks } from "./links.ts";
import type { AttachmentService } from "./service.ts";

const ATTACHMENT_ID = /^[A-Za-z0-9_-]{1,64}(~\d{1,3}){0,4}$/;

/**
 * GET /api/attachments/<token>: the signed link is the whole credential (no bearer token: an
 * `<a href>` or `<img>` cannot send one). A wildcard, because tokens are longer than Fastify's
 * 100-character limit on a path parameter.
 * GET /api/emails/:id/attachments/:attachmentId/message: an attached message, parsed.
 */
export function registerAttachmentRoutes(
  app: FastifyInstance,
  attachments: AttachmentService,
  links: AttachmentLinks,
): void {
  app.get<{ Params: { "*": string } }>("/api/attachments/*", async (request, reply) => {
    const opened = await attachments.download(request.params["*"], links.verify);
    reply.headers(attachmentHeaders(opened.filename, opened.mimeType, opened.mode));
    if (opened.size !== null) reply.header("content-length", String(opened.size));
    return reply.send(opened.body);
  });

  app.get<{ Params: { id: string; attachmentId: string } }>(
    "/api/emails/:id/attachments/:attachmentId/message",
    { preHandler: app.requireSession },
    async (request) => {
      const emailId = idParam(request.params);
      const { attachmentId } = request.params;
      if (!ATTACHMENT_ID.test(attachmentId))
        throw new DomainError("attachment_not_found", "No such attachment.");
      return attachments.attachedMessage(sessionOf(request).userId, emailId, attachmentId);
    },
  );
}
