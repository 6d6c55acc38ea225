import type { FastifyInstance, FastifyReply } from "fastify";
import { z } from "zod";
import { presentMessage as presentGmailMessage } from "../gmail/present.ts";
import type { Identity, Provider } from "../identities.ts";
import { attachmentMails, deliverAttachmentMail } from "./attachment-mail.ts";
import { composeMessage } from "./compose.ts";
import { FOLDER_DISPLAY_NAMES, type FolderName, folderOf, isCustomFolder } from "./folders.ts";
import { generateMessages, MAX_GENERATED } from "./generator.ts";
import { deliverDemoInvitation } from "./invitation.ts";
import type { Mailbox, StoredMessage } from "./mailbox.ts";
import { sampleBytes } from "./sample-files.ts";
import type { MailServices } from "./services.ts";

const providerSchema = z.enum(["google", "microsoft"]).optional();
const addressSchema = z.object({ name: z.string().optional(), address: z.string().min(3) });
const addSchema = z.union([
  z.object({
    raw: z.string().min(1),
    labelIds: z.array(z.string()).optional(),
    internalDate: z.number().int().optional(),
  }),
  z.object({
    from: addressSchema,
    subject: z.string(),
    text: z.string().optional(),
    html: z.string().optional(),
    headers: z.record(z.string(), z.string()).optional(),
    labelIds: z.array(z.string()).optional(),
    internalDate: z.number().int().optional(),
  }),
]);
const modifySchema = z.object({
  addLabelIds: z.array(z.string()).default([]),
  removeLabelIds: z.array(z.string()).default([]),
});
const generateSchema = z.object({
  count: z.number().int().min(1).max(MAX_GENERATED),
  seed: z.number().int().default(1),
  days: z.number().positive().max(3650).optional(),
  replyShare: z.number().min(0).max(1).optional(),
});
const faultsSchema = z.object({
  latencyMs: z.number().int().min(0).max(60_000).optional(),
  errorRate: z.number().min(0).max(1).optional(),
  dropRate: z.number().min(0).max(1).optional(),
  provider: z.enum(["google", "microsoft"]).nullable().optional(),
  gmailQuota: z
    .object({ enabled: z.boolean().optional(), unitsPerMinute: z.number().int().positive().optional() })
    .optional(),
  graphThrottle: z
    .object({
      enabled: z.boolean().optional(),
      maxConcurrent: z.number().int().positive().optional(),
      perTenMinutes: z.number().int().positive().optional(),
    })
    .optional(),
});
const invitationSchema = z.object({
  organizer: addressSchema.default({ name: "Priya Shah", address: "priya.shah@gmail.com" }),
  timeZone: z.string().min(1).max(64).default("Europe/London"),
});
/** Files of POST /_admin/mailboxes/{email}/attachment-mail: given bytes, or `size` deterministic ones. */
const MAX_ADMIN_FILE_BYTES = 64 * 1024 * 1024;
const attachmentMailSchema = z.object({
  from: addressSchema.default({ name: "Files Sender", address: "files@sender.example" }),
  subject: z.string().default("Files attached"),
  text: z.string().default("Files attached."),
  html: z.string().optional(),
  internalDate: z.number().int().optional(),
  files: z
    .array(
      z.object({
        filename: z.string().max(2000),
        mimeType: z.string().min(3).max(200).default("application/octet-stream"),
        base64: z.string().optional(),
        size: z.number().int().min(0).max(MAX_ADMIN_FILE_BYTES).optional(),
        seed: z.number().int().default(1),
        contentId: z.string().max(200).optional(),
      }),
    )
    .min(1)
    .max(20),
});
const pushSchema = z.object({ gmailPushUrl: z.string().url().nullable() });
const retentionSchema = z.object({ historyRetentionSeconds: z.number().positive() });

function invalid(reply: FastifyReply, error: z.ZodError): FastifyReply {
  return reply.code(400).send({
    error: "invalid_request",
    issues: error.issues.map((issue) => ({ path: issue.path, message: issue.message })),
  });
}

function folderDisplayName(folder: FolderName, mailbox?: Mailbox): string {
  return isCustomFolder(folder)
    ? (mailbox?.customFolders.get(folder) ?? folder)
    : FOLDER_DISPLAY_NAMES[folder];
}

function summary(message: StoredMessage, mailbox?: Mailbox) {
  return {
    id: message.id,
    graphId: message.graphId,
    threadId: message.threadId,
    labelIds: [...message.labels],
    /** Label ids with user labels by name ("Flagged by Mailwise" instead of "Label_1"). */
    labelNames: [...message.labels].map((id) => mailbox?.userLabels.get(id) ?? id),
    folder: folderOf(message.labels),
    /** The folder's display name ("Inbox", or a made folder's own name such as "Snoozed"). */
    folderName: folderDisplayName(folderOf(message.labels), mailbox),
    internalDate: message.internalDate,
    from: message.headers.from,
    to: message.headers.to,
    subject: message.headers.subject,
    messageId: message.headers.messageId,
    flagComplete: message.flagComplete,
    categories: message.categories,
  };
}

/**
 * Test-only mail controls under /_admin/mailboxes and /_admin/mail: deliver mail, act as another
 * client, inspect a mailbox, generate large ones, and inject quota, throttling and faults.
 */
export function registerMailAdminRoutes(app: FastifyInstance, mail: MailServices): void {
  function identityOf(email: string, provider: unknown): Identity | undefined {
    const parsed = providerSchema.safeParse(provider);
    const wanted: Provider | undefined = parsed.success ? parsed.data : undefined;
    return mail.context.identities.findByEmail(email, wanted)[0];
  }
  type EmailParams = { Params: { email: string }; Querystring: { provider?: string } };
  const notFound = (reply: FastifyReply) => reply.code(404).send({ error: "identity_not_found" });

  app.get<EmailParams & { Querystring: { label?: string; limit?: string } }>(
    "/_admin/mailboxes/:email",
    (request, reply) => {
      const identity = identityOf(request.params.email, request.query.provider);
      if (identity === undefined) return notFound(reply);
      const mailbox = mail.mailboxOf(identity);
      const limit = Math.min(Number(request.query.limit ?? 50) || 50, 1000);
      const label = request.query.label;
      const index = label === undefined ? mailbox.allIndex : mailbox.labelIndex(label);
      const messages: ReturnType<typeof summary>[] = [];
      for (const message of index?.newestFirst() ?? []) {
        if (messages.length >= limit) break;
        messages.push(summary(message, mailbox));
      }
      const labels = ["INBOX", "UNREAD", "STARRED", "SENT", "TRASH", "SPAM", "DRAFT", "IMPORTANT"];
      return {
        email: identity.email,
        provider: identity.provider,
        historyId: mailbox.historyId,
        historyFloor: mailbox.historyFloor,
        messagesTotal: mailbox.size,
        labels: Object.fromEntries(labels.map((name) => [name, mailbox.labelCounts(name)])),
        watch: mail.gmailPush.watchOf(mailbox) ?? null,
        subscriptions: mail.graphSubscriptions.list(mailbox.key).length,
        messages,
      };
    },
  );

  app.get<{ Params: { email: string; id: string }; Querystring: { provider?: string } }>(
    "/_admin/mailboxes/:email/messages/:id",
    (request, reply) => {
      const identity = identityOf(request.params.email, request.query.provider);
      if (identity === undefined) return notFound(reply);
      const mailbox = mail.mailboxOf(identity);
      const message = mailbox.get(request.params.id) ?? mailbox.getByGraphId(request.params.id);
      if (message === undefined) return reply.code(404).send({ error: "message_not_found" });
      return {
        ...summary(message, mailbox),
        raw: message.raw(),
        gmail: presentGmailMessage(message, "minimal"),
      };
    },
  );

  app.post<EmailParams>("/_admin/mailboxes/:email/messages", (request, reply) => {
    const identity = identityOf(request.params.email, request.query.provider);
    if (identity === undefined) return notFound(reply);
    const parsed = addSchema.safeParse(request.body);
    if (!parsed.success) return invalid(reply, parsed.error);
    const input = parsed.data;
    const internalDate = input.internalDate ?? mail.context.clock.now();
    const raw =
      "raw" in input
        ? input.raw
        : composeMessage({
            from: { name: input.from.name ?? input.from.address, address: input.from.address },
            to: [{ name: identity.name, address: identity.email }],
            subject: input.subject,
            text: input.text ?? (input.html === undefined ? "" : undefined),
            html: input.html,
            date: internalDate,
            extraHeaders: Object.entries(input.headers ?? {}),
          });
    const message = mail.mailboxOf(identity).add({
      raw: () => raw,
      internalDate,
      labelIds: input.labelIds ?? ["INBOX", "UNREAD", "CATEGORY_PERSONAL"],
    });
    return reply.code(201).send(summary(message));
  });

  app.post<{ Params: { email: string; id: string }; Querystring: { provider?: string } }>(
    "/_admin/mailboxes/:email/messages/:id/modify",
    (request, reply) => {
      const identity = identityOf(request.params.email, request.query.provider);
      if (identity === undefined) return notFound(reply);
      const parsed = modifySchema.safeParse(request.body ?? {});
      if (!parsed.success) return invalid(reply, parsed.error);
      const mailbox = mail.mailboxOf(identity);
      const id = mailbox.get(request.params.id)?.id ?? mailbox.getByGraphId(request.params.id)?.id ?? "";
      const message = mailbox.modify(id, parsed.data.addLabelIds, parsed.data.removeLabelIds);
      if (message === undefined) return reply.code(404).send({ error: "message_not_found" });
      return summary(message);
    },
  );

  app.delete<{ Params: { email: string; id: string }; Querystring: { provider?: string } }>(
    "/_admin/mailboxes/:email/messages/:id",
    (request, reply) => {
      const identity = identityOf(request.params.email, request.query.provider);
      if (identity === undefined) return notFound(reply);
      const mailbox = mail.mailboxOf(identity);
      const id = mailbox.get(request.params.id)?.id ?? mailbox.getByGraphId(request.params.id)?.id ?? "";
      if (!mailbox.delete(id)) return reply.code(404).send({ error: "message_not_found" });
      return reply.code(204).send();
    },
  );

  app.post<EmailParams>("/_admin/mailboxes/:email/generate", (request, reply) => {
    const identity = identityOf(request.params.email, request.query.provider);
    if (identity === undefined) return notFound(reply);
    const parsed = generateSchema.safeParse(request.body);
    if (!parsed.success) return invalid(reply, parsed.error);
    const started = performance.now();
    const mailbox = mail.mailboxOf(identity);
    const generated = generateMessages(mailbox, {
      count: parsed.data.count,
      seed: parsed.data.seed,
      days: parsed.data.days,
      ...(parsed.data.replyShare !== undefined ? { replyShare: parsed.data.replyShare } : {}),
      now: mail.context.clock.now(),
      to: { name: identity.name, address: identity.email },
    });
    return { generated, messagesTotal: mailbox.size, ms: Math.round(performance.now() - started) };
  });

  /** Delivers the demo meeting invitation (as seeded demo mailboxes hold one) to any identity. */
  app.post<EmailParams>("/_admin/mailboxes/:email/invitation", (request, reply) => {
    const identity = identityOf(request.params.email, request.query.provider);
    if (identity === undefined) return notFound(reply);
    const parsed = invitationSchema.safeParse(request.body ?? {});
    if (!parsed.success) return invalid(reply, parsed.error);
    const { organizer, timeZone } = parsed.data;
    try {
      Intl.DateTimeFormat(undefined, { timeZone });
    } catch {
      return reply
        .code(400)
        .send({ error: "invalid_request", issues: [{ path: ["timeZone"], message: "unknown zone" }] });
    }
    const message = deliverDemoInvitation(
      mail.mailboxOf(identity),
      identity,
      { name: organizer.name ?? organizer.address, address: organizer.address },
      timeZone,
      mail.context.clock.now(),
      true,
      mail.demoMeetings.planner,
    );
    return reply.code(201).send(summary(message));
  });

  /**
   * Delivers a mail with files (hostile names, big files for the memory bench): each file's
   * bytes are `base64`, or `size` deterministic bytes from `seed`.
   */
  app.post<EmailParams>("/_admin/mailboxes/:email/attachment-mail", (request, reply) => {
    const identity = identityOf(request.params.email, request.query.provider);
    if (identity === undefined) return notFound(reply);
    const parsed = attachmentMailSchema.safeParse(request.body ?? {});
    if (!parsed.success) return invalid(reply, parsed.error);
    const input = parsed.data;
    const message = deliverAttachmentMail(mail.mailboxOf(identity), {
      from: { name: input.from.name ?? input.from.address, address: input.from.address },
      to: { name: identity.name, address: identity.email },
      subject: input.subject,
      text: input.text,
      ...(input.html === undefined ? {} : { html: input.html }),
      date: input.internalDate ?? mail.context.clock.now(),
      files: input.files.map((file) => ({
        filename: file.filename,
        mimeType: file.mimeType,
        content:
          file.base64 !== undefined
            ? Buffer.from(file.base64, "base64")
            : sampleBytes(file.size ?? 0, file.seed),
        ...(file.contentId === undefined ? {} : { contentId: file.contentId }),
      })),
    });
    return reply.code(201).send(summary(message, mail.mailboxOf(identity)));
  });

  /** Delivers the five mails with files that seeded demo mailboxes hold (for unseeded test mailboxes). */
  app.post<EmailParams>("/_admin/mailboxes/:email/demo-attachments", (request, reply) => {
    const identity = identityOf(request.params.email, request.query.provider);
    if (identity === undefined) return notFound(reply);
    const mailbox = mail.mailboxOf(identity);
    const sender = { name: "Priya Shah", address: "priya.shah@gmail.com" };
    const messages = attachmentMails(identity, sender, mail.context.clock.now()).map((input) =>
      summary(deliverAttachmentMail(mailbox, input), mailbox),
    );
    return reply.code(201).send({ messages });
  });

  app.post<EmailParams>("/_admin/mailboxes/:email/expire-sync", (request, reply) => {
    const identity = identityOf(request.params.email, request.query.provider);
    if (identity === undefined) return notFound(reply);
    const mailbox = mail.mailboxOf(identity);
    mailbox.expireHistory();
    return { historyId: mailbox.historyId, historyFloor: mailbox.historyFloor };
  });

  app.post<EmailParams>("/_admin/mailboxes/:email/retention", (request, reply) => {
    const identity = identityOf(request.params.email, request.query.provider);
    if (identity === undefined) return notFound(reply);
    const parsed = retentionSchema.safeParse(request.body);
    if (!parsed.success) return invalid(reply, parsed.error);
    const mailbox = mail.mailboxOf(identity);
    mailbox.setRetention(parsed.data.historyRetentionSeconds * 1000);
    return { historyId: mailbox.historyId, historyFloor: mailbox.historyFloor };
  });

  app.post<EmailParams>("/_admin/mailboxes/:email/reset", (request, reply) => {
    const identity = identityOf(request.params.email, request.query.provider);
    if (identity === undefined) return notFound(reply);
    mail.mailboxes.reset(identity);
    return reply.code(204).send();
  });

  app.get("/_admin/mail/faults", () => ({
    ...mail.faults.settings,
    delayed: [...mail.faults.delayed.values()],
    gmailQuota: mail.quota.settings,
    graphThrottle: mail.throttle.settings,
  }));

  app.put("/_admin/mail/faults", (request, reply) => {
    const parsed = faultsSchema.safeParse(request.body);
    if (!parsed.success) return invalid(reply, parsed.error);
    const { gmailQuota, graphThrottle, provider, ...rest } = parsed.data;
    mail.faults.set({ ...rest, ...(provider === undefined ? {} : { provider: provider ?? undefined }) });
    if (gmailQuota !== undefined) mail.quota.settings = { ...mail.quota.settings, ...gmailQuota };
    if (graphThrottle !== undefined) mail.throttle.settings = { ...mail.throttle.settings, ...graphThrottle };
    return {
      ...mail.faults.settings,
      gmailQuota: mail.quota.settings,
      graphThrottle: mail.throttle.settings,
    };
  });

  app.post("/_admin/mail/faults/reset", (_request, reply) => {
    mail.faults.reset();
    mail.quota.reset();
    mail.throttle.reset();
    return reply.code(204).send();
  });

  app.put("/_admin/mail/push", (request, reply) => {
    const parsed = pushSchema.safeParse(request.body);
    if (!parsed.success) return invalid(reply, parsed.error);
    mail.gmailPush.pushUrl = parsed.data.gmailPushUrl ?? undefined;
    return { gmailPushUrl: mail.gmailPush.pushUrl ?? null };
  });

  app.get("/_admin/mail/push/deliveries", () => ({
    gmail: mail.gmailPush.delivery.log,
    graph: mail.graphSubscriptions.delivery.log,
  }));

  app.get("/_admin/mail/seed-timings", () => ({ timings: mail.mailboxes.seedTimings }));
}
