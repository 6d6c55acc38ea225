import type { gmail_v1 } from "@googleapis/gmail";
import type { FastifyInstance, FastifyReply } from "fastify";
import { GMAIL_COSTS } from "../faults/quota.ts";
import type { Mailbox, StoredMessage } from "../mailbox/mailbox.ts";
import { decodedBytes, findPart } from "../mailbox/mime.ts";
import { sendMessage } from "../mailbox/outgoing.ts";
import type { MailServices } from "../mailbox/services.ts";
import { gmailCaller } from "./caller.ts";
import { GMAIL_ERRORS, type GoogleApiErrorBody, sendGoogleError } from "./errors.ts";
import { listMessages } from "./list.ts";
import { answerList } from "./list-route.ts";
import { bodyObject, decodeBase64Url, firstString, stringList } from "./params.ts";
import { type MessageFormat, parsedMessage, partIdFromAttachmentId, presentMessage } from "./present.ts";

const BASE = "/gmail/v1/users/:userId";
const FORMATS = new Set(["minimal", "metadata", "full", "raw"]);
/** Labels a client may not add or remove through modify. */
const IMMUTABLE = new Set(["SENT", "DRAFT"]);

type IdParams = { userId: string; id: string };

function labelEdits(body: unknown): { add: string[]; remove: string[] } | string {
  const fields = bodyObject(body);
  const add = stringList(fields.addLabelIds);
  const remove = stringList(fields.removeLabelIds);
  const bad = [...add, ...remove].find((label) => IMMUTABLE.has(label));
  if (bad !== undefined) return `Invalid label: ${bad}`;
  return { add, remove };
}

function found(reply: FastifyReply, message: StoredMessage | undefined): message is StoredMessage {
  if (message === undefined) sendGoogleError(reply, GMAIL_ERRORS.notFound());
  return message !== undefined;
}

/** What `messages.get` costs and needs, for its route and for batched calls answered directly. */
export const MESSAGES_GET_CALL = { cost: GMAIL_COSTS.messagesGet, need: "read" } as const;

/** `messages.get`: the message in the asked format, or Google's error. */
export function getMessage(
  mailbox: Mailbox,
  id: string,
  query: Record<string, unknown>,
): gmail_v1.Schema$Message | GoogleApiErrorBody {
  const format = firstString(query.format) ?? "full";
  if (!FORMATS.has(format)) return GMAIL_ERRORS.invalidArgument(`Invalid format: ${format}`);
  if (!/^[0-9a-f]{1,20}$/i.test(id)) return GMAIL_ERRORS.invalidArgument("Invalid id value");
  const message = mailbox.get(id);
  if (message === undefined) return GMAIL_ERRORS.notFound();
  return presentMessage(message, format as MessageFormat, stringList(query.metadataHeaders));
}

export function registerGmailMessageRoutes(app: FastifyInstance, mail: MailServices): void {
  app.get(
    `${BASE}/messages`,
    { config: { gmailCost: GMAIL_COSTS.messagesList, gmailNeed: "read" } },
    (request, reply) => {
      const { mailbox } = gmailCaller(request);
      return answerList(reply, request.query as Record<string, unknown>, (page) =>
        listMessages(mailbox, { ...page, now: mail.context.clock.now() }),
      );
    },
  );

  app.get<{ Params: IdParams }>(
    `${BASE}/messages/:id`,
    { config: { gmailCost: MESSAGES_GET_CALL.cost, gmailNeed: MESSAGES_GET_CALL.need } },
    (request, reply) => {
      const query = request.query as Record<string, unknown>;
      const answer = getMessage(gmailCaller(request).mailbox, request.params.id, query);
      return "error" in answer ? sendGoogleError(reply, answer) : answer;
    },
  );

  app.get<{ Params: IdParams & { attachmentId: string } }>(
    `${BASE}/messages/:id/attachments/:attachmentId`,
    { config: { gmailCost: GMAIL_COSTS.attachmentsGet, gmailNeed: "read" } },
    (request, reply) => {
      const message = gmailCaller(request).mailbox.get(request.params.id);
      if (!found(reply, message)) return reply;
      const partId = partIdFromAttachmentId(message, request.params.attachmentId);
      const part = partId === undefined ? undefined : findPart(parsedMessage(message), partId);
      if (part === undefined) return sendGoogleError(reply, GMAIL_ERRORS.notFound());
      const bytes = decodedBytes(part);
      return {
        attachmentId: request.params.attachmentId,
        size: bytes.length,
        data: bytes.toString("base64url"),
      };
    },
  );

  app.post<{ Params: IdParams }>(
    `${BASE}/messages/:id/modify`,
    { config: { gmailCost: GMAIL_COSTS.messagesModify, gmailNeed: "modify" } },
    (request, reply) => {
      const edits = labelEdits(request.body);
      if (typeof edits === "string") return sendGoogleError(reply, GMAIL_ERRORS.invalidArgument(edits));
      const message = gmailCaller(request).mailbox.modify(request.params.id, edits.add, edits.remove);
      if (!found(reply, message)) return reply;
      return presentMessage(message, "minimal");
    },
  );

  app.post(
    `${BASE}/messages/batchModify`,
    { config: { gmailCost: GMAIL_COSTS.batchModify, gmailNeed: "modify" } },
    (request, reply) => {
      const ids = stringList(bodyObject(request.body).ids);
      if (ids.length === 0)
        return sendGoogleError(reply, GMAIL_ERRORS.invalidArgument("No message ids specified"));
      if (ids.length > 1000) {
        return sendGoogleError(
          reply,
          GMAIL_ERRORS.invalidArgument("Too many ids specified; the limit is 1000"),
        );
      }
      const edits = labelEdits(request.body);
      if (typeof edits === "string") return sendGoogleError(reply, GMAIL_ERRORS.invalidArgument(edits));
      gmailCaller(request).mailbox.modifyMany(ids, edits.add, edits.remove);
      return reply.code(204).send();
    },
  );

  const trashRoute = (path: string, add: string[], remove: string[]) =>
    app.post<{ Params: IdParams }>(
      `${BASE}/messages/:id/${path}`,
      { config: { gmailCost: GMAIL_COSTS.messagesTrash, gmailNeed: "modify" } },
      (request, reply) => {
        const message = gmailCaller(request).mailbox.modify(request.params.id, add, remove);
        if (!found(reply, message)) return reply;
        return presentMessage(message, "minimal");
      },
    );
  trashRoute("trash", ["TRASH"], ["INBOX", "SPAM"]);
  trashRoute("untrash", ["INBOX"], ["TRASH"]);

  app.delete<{ Params: IdParams }>(
    `${BASE}/messages/:id`,
    { config: { gmailCost: GMAIL_COSTS.messagesDelete, gmailNeed: "modify" } },
    (request, reply) => {
      if (!gmailCaller(request).mailbox.delete(request.params.id))
        return sendGoogleError(reply, GMAIL_ERRORS.notFound());
      return reply.code(204).send();
    },
  );

  app.post(
    `${BASE}/messages/send`,
    { config: { gmailCost: GMAIL_COSTS.messagesSend, gmailNeed: "send" } },
    (request, reply) => {
      const body = bodyObject(request.body);
      const raw = typeof body.raw === "string" ? decodeBase64Url(body.raw) : undefined;
      if (raw === undefined || raw.trim() === "") {
        return sendGoogleError(
          reply,
          GMAIL_ERRORS.invalidArgument(
            "'raw' RFC822 payload message string or uploading message via /upload/* URL required",
          ),
        );
      }
      const caller = gmailCaller(request);
      const threadId = typeof body.threadId === "string" ? body.threadId : undefined;
      const sent = sendMessage(mail, caller.identity, raw, { threadId });
      if (sent === undefined) return sendGoogleError(reply, GMAIL_ERRORS.backendError());
      const out: gmail_v1.Schema$Message = {
        id: sent.id,
        threadId: sent.threadId,
        labelIds: [...sent.labels],
      };
      return out;
    },
  );
}
