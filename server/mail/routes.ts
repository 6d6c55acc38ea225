import type { FastifyInstance } from "fastify";
import { emailInvitationQuerySchema } from "../../contract/calendar.ts";
import { inboxZeroQueueQuerySchema } from "../../contract/inbox-zero.ts";
import {
  bulkActionRequestSchema,
  emailAnalyticsQuerySchema,
  emailListQuerySchema,
  emailPatchSchema,
  sendEmailRequestSchema,
  unsubscribeRequestSchema,
} from "../../contract/mail.ts";
import { sessionOf } from "../http/auth-guard.ts";
import { registerAttachmentRoutes } from "./attachments/routes.ts";
import { sendCached, sendWithEtag } from "./cache/cached-reply.ts";
import { registerDraftRoutes } from "./drafts/routes.ts";
import type { Outbox } from "./outbox/outbox-service.ts";
import type { MailServices } from "./services.ts";
import { registerUploadRoutes } from "./uploads/routes.ts";
import { idParam, parseInput } from "./validation.ts";

/** The mail API (contract/mail.ts). Every query is scoped to the signed-in user. */
export function registerMailRoutes(app: FastifyInstance, mail: MailServices, outbox?: Outbox): void {
  const guarded = { preHandler: app.requireSession };
  registerAttachmentRoutes(app, mail.attachments, mail.attachmentLinks);
  registerUploadRoutes(app, mail.uploads);
  registerDraftRoutes(app, mail.drafts);

  // Hot reads come from the person's read cache (decision 0078): first pages of every list
  // (inbox, buckets, search, conversations) and opened emails. Later pages (a cursor)
  // are read once each, so they go to the database.
  app.get("/api/emails", guarded, async (request, reply) => {
    const query = parseInput(emailListQuerySchema, request.query);
    const { userId } = sessionOf(request);
    if (query.cursor) return mail.lister.list(userId, query);
    return sendCached(mail.readCache, request, reply, userId, () => mail.lister.list(userId, query));
  });

  // Not kept here: the providers' inbox totals arrive in the background with no event, and the
  // stats service keeps its own counts (stats-service.ts). The ETag still spares a polling client.
  app.get("/api/emails/stats", guarded, async (request, reply) =>
    sendWithEtag(request, reply, await mail.stats.stats(sessionOf(request).userId)),
  );

  app.get("/api/emails/analytics", guarded, async (request) => {
    const { days } = parseInput(emailAnalyticsQuerySchema, request.query);
    return mail.analytics.analytics(sessionOf(request).userId, days);
  });

  app.get("/api/emails/action-items", guarded, async (request) =>
    mail.actionItems.find(sessionOf(request).userId),
  );

  app.post("/api/emails/auto-sync", guarded, async (request, reply) => {
    const answer = await mail.syncRequester.syncAll(sessionOf(request).userId);
    return reply.status(202).send(answer);
  });

  app.get("/api/emails/sync-status", guarded, async (request) => ({
    accounts: await mail.syncRequester.status(sessionOf(request).userId),
  }));

  app.post("/api/emails/bulk-action", guarded, async (request) => {
    const body = parseInput(bulkActionRequestSchema, request.body);
    const change = body.action === "archive" ? { isArchived: true } : { isRead: true };
    return mail.actions.apply(sessionOf(request).userId, body.emailIds, change);
  });

  app.post("/api/emails/send", guarded, async (request) => {
    const body = parseInput(sendEmailRequestSchema, request.body);
    // Held for the person's "Undo send" delay, then sent by the worker (server/mail/outbox/).
    if (outbox) return outbox.hold(sessionOf(request).userId, body);
    return mail.sender.send(sessionOf(request).userId, body);
  });

  app.post("/api/emails/unsubscribe", guarded, async (request, reply) => {
    const body = parseInput(unsubscribeRequestSchema, request.body);
    const status = await mail.unsubscriber.request(sessionOf(request).userId, body.emailId, body.fromAddress);
    return reply.status(202).send(status);
  });

  app.get("/api/emails/unsubscribe-status", guarded, async (request) => ({
    requests: await mail.unsubscriber.list(sessionOf(request).userId),
  }));

  // Inbox Zero mode: its queue and the processed mark set after each action (spec section 4).
  app.get("/api/inbox-zero/queue", guarded, async (request) => {
    const { limit } = parseInput(inboxZeroQueueQuerySchema, request.query);
    return mail.inboxZero.queue(sessionOf(request).userId, limit);
  });

  app.put("/api/inbox-zero/processed/:id", guarded, async (request) =>
    mail.inboxZero.markProcessed(sessionOf(request).userId, idParam(request.params)),
  );

  app.delete("/api/inbox-zero/processed/:id", guarded, async (request) =>
    mail.inboxZero.unmarkProcessed(sessionOf(request).userId, idParam(request.params)),
  );

  app.get("/api/emails/:id", guarded, async (request, reply) => {
    const { userId } = sessionOf(request);
    const id = idParam(request.params);
    return sendCached(mail.readCache, request, reply, userId, () => mail.lister.get(userId, id), id);
  });

  app.get("/api/emails/:id/invitation", guarded, async (request) => {
    const { tz } = parseInput(emailInvitationQuerySchema, request.query);
    return mail.invitations.get(sessionOf(request).userId, idParam(request.params), tz);
  });

  app.patch("/api/emails/:id", guarded, async (request) => {
    const { userId } = sessionOf(request);
    const id = idParam(request.params);
    const change = parseInput(emailPatchSchema, request.body);
    await mail.actions.apply(userId, [id], change);
    return mail.lister.get(userId, id);
  });

  app.delete("/api/emails/:id", guarded, async (request) => {
    const { userId } = sessionOf(request);
    const id = idParam(request.params);
    await mail.actions.apply(userId, [id], { trash: true });
    return mail.lister.get(userId, id);
  });
}
