import type { gmail_v1 } from "@googleapis/gmail";
import type { FastifyInstance, FastifyReply } from "fastify";
import { GMAIL_COSTS } from "../faults/quota.ts";
import { headerValue, parseAddressList, parseHeaderBlock, splitHeaderBlock } from "../mailbox/headers.ts";
import type { Mailbox, StoredMessage } from "../mailbox/mailbox.ts";
import { sendMessage } from "../mailbox/outgoing.ts";
import type { MailServices } from "../mailbox/services.ts";
import { gmailCaller } from "./caller.ts";
import { GMAIL_ERRORS, sendGoogleError } from "./errors.ts";
import { listMessages } from "./list.ts";
import { answerList } from "./list-route.ts";
import { bodyObject, decodeBase64Url, firstString } from "./params.ts";
import { type MessageFormat, presentMessage } from "./present.ts";

/**
 * users.drafts (create, update, get, list, delete, send) with Gmail's shapes. A draft is a message
 * with the DRAFT label; its id is "r" and the first message's id in decimal. drafts.update gives
 * the draft a new message (as Gmail does) under the same draft id, remembered per mailbox.
 */

const BASE = "/gmail/v1/users/:userId";
const FORMATS = new Set(["minimal", "metadata", "full", "raw"]);

/** Draft id -> current message id, for drafts whose message drafts.update replaced. */
const replacedMessages = new WeakMap<Mailbox, Map<string, string>>();
/** The draft id a replacement message carries (its own id would give another one). */
const inheritedDraftIds = new WeakMap<StoredMessage, string>();

export function draftIdOf(message: StoredMessage): string {
  return inheritedDraftIds.get(message) ?? `r${BigInt(`0x${message.id}`).toString()}`;
}

export function messageOfDraft(mailbox: Mailbox, draftId: string): StoredMessage | undefined {
  if (!/^r\d{1,25}$/.test(draftId)) return undefined;
  const messageId =
    replacedMessages.get(mailbox)?.get(draftId) ?? BigInt(draftId.slice(1)).toString(16).padStart(16, "0");
  const message = mailbox.get(messageId);
  return message?.labels.has("DRAFT") && draftIdOf(message) === draftId ? message : undefined;
}

export function presentDraft(message: StoredMessage): gmail_v1.Schema$Draft {
  return {
    id: draftIdOf(message),
    message: { id: message.id, threadId: message.threadId, labelIds: [...message.labels] },
  };
}

/** The draft body's message: its RFC 822 text and thread, or the error Gmail answers. */
function draftMessage(body: unknown): { raw: string; threadId: string | undefined } | string {
  const message = bodyObject(bodyObject(body).message);
  const raw = typeof message.raw === "string" ? decodeBase64Url(message.raw) : undefined;
  if (raw === undefined || raw.trim() === "") return "Missing draft message";
  return { raw, threadId: typeof message.threadId === "string" ? message.threadId : undefined };
}

function hasRecipient(raw: string): boolean {
  const head = parseHeaderBlock(splitHeaderBlock(raw).head);
  return ["to", "cc", "bcc"].some((name) => parseAddressList(headerValue(head, name)).length > 0);
}

/** drafts.create: a message with the DRAFT label (JSON `raw` or the upload endpoint's media). */
export function createDraftMessage(
  mailbox: Mailbox,
  now: number,
  input: { raw: string; threadId: string | undefined },
): StoredMessage {
  return mailbox.add({
    raw: () => input.raw,
    internalDate: now,
    labelIds: ["DRAFT"],
    threadId: input.threadId,
  });
}

/** A new message for the draft, the old one deleted: Gmail's drafts.update. */
export function replaceDraftMessage(
  mailbox: Mailbox,
  now: number,
  old: StoredMessage,
  input: { raw: string; threadId: string | undefined },
): StoredMessage {
  const draftId = draftIdOf(old);
  const next = createDraftMessage(mailbox, now, { raw: input.raw, threadId: input.threadId ?? old.threadId });
  mailbox.delete(old.id);
  inheritedDraftIds.set(next, draftId);
  const map = replacedMessages.get(mailbox) ?? new Map<string, string>();
  map.set(draftId, next.id);
  replacedMessages.set(mailbox, map);
  return next;
}

export function registerGmailDraftRoutes(app: FastifyInstance, mail: MailServices): void {
  const now = () => mail.context.clock.now();
  const create = (mailbox: Mailbox, input: { raw: string; threadId: string | undefined }) =>
    createDraftMessage(mailbox, now(), input);
  const replace = (
    mailbox: Mailbox,
    old: StoredMessage,
    input: { raw: string; threadId: string | undefined },
  ) => replaceDraftMessage(mailbox, now(), old, input);

  function found(reply: FastifyReply, message: StoredMessage | undefined): message is StoredMessage {
    if (message === undefined) sendGoogleError(reply, GMAIL_ERRORS.notFound());
    return message !== undefined;
  }

  app.post(
    `${BASE}/drafts`,
    { config: { gmailCost: GMAIL_COSTS.draftsCreate, gmailNeed: "compose" } },
    (request, reply) => {
      const input = draftMessage(request.body);
      if (typeof input === "string") return sendGoogleError(reply, GMAIL_ERRORS.invalidArgument(input));
      return presentDraft(create(gmailCaller(request).mailbox, input));
    },
  );

  app.put<{ Params: { userId: string; id: string } }>(
    `${BASE}/drafts/:id`,
    { config: { gmailCost: GMAIL_COSTS.draftsUpdate, gmailNeed: "compose" } },
    (request, reply) => {
      const { mailbox } = gmailCaller(request);
      const old = messageOfDraft(mailbox, request.params.id);
      if (!found(reply, old)) return reply;
      const input = draftMessage(request.body);
      if (typeof input === "string") return sendGoogleError(reply, GMAIL_ERRORS.invalidArgument(input));
      return presentDraft(replace(mailbox, old, input));
    },
  );

  app.get(
    `${BASE}/drafts`,
    { config: { gmailCost: GMAIL_COSTS.draftsList, gmailNeed: "read" } },
    (request, reply) => {
      const { mailbox } = gmailCaller(request);
      const listed = answerList(reply, request.query as Record<string, unknown>, (page) =>
        listMessages(mailbox, { ...page, labelIds: ["DRAFT"], includeSpamTrash: true, now: now() }),
      );
      if (!("resultSizeEstimate" in listed)) return listed;
      const drafts = (listed.messages ?? []).flatMap((ref) => {
        const message = ref.id ? mailbox.get(ref.id) : undefined;
        return message === undefined
          ? []
          : [{ id: draftIdOf(message), message: { id: message.id, threadId: message.threadId } }];
      });
      const out: gmail_v1.Schema$ListDraftsResponse = { resultSizeEstimate: listed.resultSizeEstimate ?? 0 };
      if (drafts.length > 0) out.drafts = drafts;
      if (listed.nextPageToken) out.nextPageToken = listed.nextPageToken;
      return out;
    },
  );

  app.get<{ Params: { userId: string; id: string } }>(
    `${BASE}/drafts/:id`,
    { config: { gmailCost: GMAIL_COSTS.draftsGet, gmailNeed: "read" } },
    (request, reply) => {
      const message = messageOfDraft(gmailCaller(request).mailbox, request.params.id);
      if (!found(reply, message)) return reply;
      const format = firstString((request.query as Record<string, unknown>).format) ?? "full";
      if (!FORMATS.has(format))
        return sendGoogleError(reply, GMAIL_ERRORS.invalidArgument(`Invalid format: ${format}`));
      return { id: request.params.id, message: presentMessage(message, format as MessageFormat) };
    },
  );

  app.delete<{ Params: { userId: string; id: string } }>(
    `${BASE}/drafts/:id`,
    { config: { gmailCost: GMAIL_COSTS.draftsDelete, gmailNeed: "compose" } },
    (request, reply) => {
      const { mailbox } = gmailCaller(request);
      const message = messageOfDraft(mailbox, request.params.id);
      if (!found(reply, message)) return reply;
      mailbox.delete(message.id);
      return reply.code(204).send();
    },
  );

  // drafts.send: the draft (updated first when the body carries a message) is sent like
  // messages.send and leaves Drafts; the answer is the sent message.
  app.post(
    `${BASE}/drafts/send`,
    { config: { gmailCost: GMAIL_COSTS.draftsSend, gmailNeed: "compose" } },
    (request, reply) => {
      const caller = gmailCaller(request);
      const id = bodyObject(request.body).id;
      if (typeof id !== "string" || id === "")
        return sendGoogleError(reply, GMAIL_ERRORS.invalidArgument("Missing draft id"));
      let draft = messageOfDraft(caller.mailbox, id);
      if (!found(reply, draft)) return reply;
      if (bodyObject(request.body).message !== undefined) {
        const input = draftMessage(request.body);
        if (typeof input === "string") return sendGoogleError(reply, GMAIL_ERRORS.invalidArgument(input));
        draft = replace(caller.mailbox, draft, input);
      }
      const raw = draft.raw();
      if (!hasRecipient(raw))
        return sendGoogleError(reply, GMAIL_ERRORS.invalidArgument("Recipient address required"));
      const sent = sendMessage(mail, caller.identity, raw, { threadId: draft.threadId });
      if (sent === undefined) return sendGoogleError(reply, GMAIL_ERRORS.backendError());
      caller.mailbox.delete(draft.id);
      const out: gmail_v1.Schema$Message = {
        id: sent.id,
        threadId: sent.threadId,
        labelIds: [...sent.labels],
      };
      return out;
    },
  );
}
