import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { emulatorBaseUrl } from "../../context.ts";
import { bodyObject, firstString } from "../../gmail/params.ts";
import { composeMessage } from "../../mailbox/compose.ts";
import {
  type CustomFolder,
  FOLDER_DISPLAY_NAMES,
  type FolderName,
  folderOf,
  isCustomFolder,
  isFolderName,
  WELL_KNOWN_FOLDERS,
} from "../../mailbox/folders.ts";
import { graphFolderId } from "../../mailbox/ids.ts";
import type { Mailbox, StoredMessage } from "../../mailbox/mailbox.ts";
import { decodedBytes, parseMime, toBinary } from "../../mailbox/mime.ts";
import { sendMessage } from "../../mailbox/outgoing.ts";
import type { MailServices } from "../../mailbox/services.ts";
import type { SortedIndex } from "../../mailbox/sorted-index.ts";
import { graphCaller } from "./caller.ts";
import { attach, draftFilesOf } from "./draft-attachments.ts";
import { draftFields, draftRaw, patchedFields } from "./drafts.ts";
import { sendGraphError, sendKnownGraphError } from "./errors.ts";
import { FilterError, firstFilterProperty, parseFilter } from "./filter.ts";
import { deliveredBodies } from "./html-body.ts";
import {
  attachmentParts,
  isInlinePart,
  type PresentOptions,
  parseSelect,
  presentFolder,
  presentMessage,
} from "./present.ts";

const ROOT = "https://graph.microsoft.com/v1.0";

/** A well-known name (any case) or the folder's id (a well-known folder's or a made one's). */
export function resolveFolder(mailbox: Mailbox, value: string): FolderName | undefined {
  const lower = value.toLowerCase();
  if (isFolderName(lower)) return lower;
  const known = WELL_KNOWN_FOLDERS.find((folder) => graphFolderId(mailbox.key, folder) === value);
  if (known !== undefined) return known;
  for (const label of mailbox.customFolders.keys())
    if (isCustomFolder(label) && graphFolderId(mailbox.key, label) === value) return label;
  return undefined;
}

/** Every folder under the root: the well-known ones, then those made with POST /me/mailFolders. */
function allFolders(mailbox: Mailbox): FolderName[] {
  return [...WELL_KNOWN_FOLDERS, ...[...mailbox.customFolders.keys()].filter(isCustomFolder)];
}

export function presentOptions(request: FastifyRequest): PresentOptions {
  const query = request.query as Record<string, unknown>;
  const prefer = String(request.headers.prefer ?? "");
  return {
    select: parseSelect(firstString(query.$select)),
    bodyType: /outlook\.body-content-type="?text"?/i.test(prefer) ? "text" : "html",
  };
}

/** Graph's object stand-in for a message id in a URL: the current id only, never an old one. */
function findMessage(mailbox: Mailbox, id: string): StoredMessage | undefined {
  return mailbox.getByGraphId(id);
}

function listPage(
  mail: MailServices,
  request: FastifyRequest,
  reply: FastifyReply,
  index: SortedIndex<StoredMessage>,
  path: string,
) {
  const { mailbox } = graphCaller(request);
  const now = mail.context.clock.now();
  const query = request.query as Record<string, unknown>;
  const topText = firstString(query.$top);
  const top = topText === undefined ? 10 : Number(topText);
  if (!Number.isInteger(top) || top < 1 || top > 1000) {
    return sendGraphError(
      reply,
      400,
      "ErrorInvalidArgument",
      "The value of $top must be between 1 and 1000.",
      now,
    );
  }
  const skip = Number(firstString(query.$skip) ?? "0");
  if (!Number.isInteger(skip) || skip < 0)
    return sendGraphError(reply, 400, "BadRequest", "Invalid $skip value.", now);
  const orderby = (firstString(query.$orderby) ?? "receivedDateTime desc").toLowerCase().trim();
  if (!/^receiveddatetime( (asc|desc))?$/.test(orderby)) {
    return sendGraphError(
      reply,
      400,
      "ErrorInvalidProperty",
      "Only receivedDateTime ordering is supported.",
      now,
    );
  }
  // Graph answers a $filter with an $orderby only when the ordered property is also filtered on,
  // first (https://learn.microsoft.com/graph/api/user-list-messages, "Using filter and orderby in
  // the same query"); otherwise 400 InefficientFilter.
  const filterText = firstString(query.$filter);
  if (
    filterText !== undefined &&
    firstString(query.$orderby) !== undefined &&
    firstFilterProperty(filterText) !== "receiveddatetime"
  ) {
    return sendGraphError(
      reply,
      400,
      "InefficientFilter",
      "The restriction or sort order is too complex for this operation.",
      now,
    );
  }
  let filter: ((message: StoredMessage) => boolean) | undefined;
  try {
    filter = parseFilter(filterText, mailbox.key);
  } catch (error) {
    if (error instanceof FilterError) return sendGraphError(reply, 400, "BadRequest", error.message, now);
    throw error;
  }
  const ascending = orderby.endsWith("asc") && !orderby.endsWith("desc");
  const page: StoredMessage[] = [];
  let more = false;
  if (filter === undefined && !ascending) {
    // Unfiltered and newest first: jump straight to the offset.
    for (let offset = skip; offset < skip + top + 1; offset += 1) {
      const message = index.atNewestOffset(offset);
      if (message === undefined) break;
      if (page.length === top) more = true;
      else page.push(message);
    }
  } else {
    let matched = 0;
    for (const message of ascending ? index.oldestFirst() : index.newestFirst()) {
      if (filter !== undefined && !filter(message)) continue;
      matched += 1;
      if (matched <= skip) continue;
      if (page.length === top) {
        more = true;
        break;
      }
      page.push(message);
    }
  }
  const options = presentOptions(request);
  const out: Record<string, unknown> = {
    "@odata.context": `${ROOT}/$metadata#users('${encodeURIComponent(mailbox.email)}')/messages`,
    value: page.map((message) => presentMessage(mailbox, message, options)),
  };
  if (more) {
    const params = new URLSearchParams();
    for (const name of ["$select", "$filter", "$orderby"]) {
      const value = firstString(query[name]);
      if (value !== undefined) params.set(name, value);
    }
    params.set("$top", String(top));
    params.set("$skip", String(skip + top));
    out["@odata.nextLink"] =
      `${emulatorBaseUrl(mail.context, request)}/graph.microsoft.com/v1.0${path}?${params.toString()}`;
  }
  return out;
}

interface RecipientInput {
  emailAddress?: { name?: string; address?: string };
}

function addresses(value: unknown): { name: string; address: string }[] {
  if (!Array.isArray(value)) return [];
  return (value as RecipientInput[]).flatMap((recipient) => {
    const address = recipient.emailAddress?.address;
    return typeof address === "string" ? [{ name: recipient.emailAddress?.name ?? address, address }] : [];
  });
}

/** The addresses of a To or Cc header value (a naive split on commas, as the emulator's own mail needs). */
function headerAddresses(value: string): { name: string; address: string }[] {
  return value
    .split(",")
    .map((part) => parseHeaderAddress(part))
    .filter((a): a is { name: string; address: string } => a !== undefined);
}

/** The address in a From header value such as `"Ann" <ann@example.com>`. */
function parseHeaderAddress(value: string): { name: string; address: string } | undefined {
  const angle = /<([^>]+)>/.exec(value);
  const address = (angle?.[1] ?? value).trim();
  if (!address.includes("@")) return undefined;
  const name = angle ? value.slice(0, angle.index).replace(/"/g, "").trim() : "";
  return { name: name || address, address };
}

/** The recipients Graph puts on a createReply / createReplyAll / createForward draft. */
function draftRecipients(
  action: "createReply" | "createReplyAll" | "createForward",
  original: StoredMessage,
  self: string,
  message: Record<string, unknown>,
): { to: { name: string; address: string }[]; cc: { name: string; address: string }[] } {
  const given = { to: addresses(message.toRecipients), cc: addresses(message.ccRecipients) };
  if (action === "createForward") return given;
  const sender = parseHeaderAddress(original.headers.from);
  if (action === "createReply")
    return { to: given.to.length > 0 ? given.to : sender ? [sender] : [], cc: given.cc };
  const seen = new Set([self.toLowerCase()]);
  const once = (list: { name: string; address: string }[]) =>
    list.filter((a) => {
      const key = a.address.toLowerCase();
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  const to = once([...(sender ? [sender] : []), ...headerAddresses(original.headers.to)]);
  return { to, cc: once(headerAddresses(original.headers.cc)) };
}

/** Builds RFC 822 from a Graph message body (sendMail, create draft). */
function rawFromGraph(
  mail: MailServices,
  sender: { name: string; email: string },
  input: Record<string, unknown>,
): string {
  const body = bodyObject(input.body);
  const content = typeof body.content === "string" ? body.content : "";
  const html = String(body.contentType ?? "text").toLowerCase() === "html";
  return composeMessage({
    from: { name: sender.name, address: sender.email },
    to: addresses(input.toRecipients),
    cc: addresses(input.ccRecipients),
    bcc: addresses(input.bccRecipients),
    subject: typeof input.subject === "string" ? input.subject : "",
    ...deliveredBodies(html, content),
    // Graph keeps a new message's internetMessageId as given (writable while it is a draft).
    ...(typeof input.internetMessageId === "string" && /^<[^<>\s]+>$/.test(input.internetMessageId)
      ? { messageId: input.internetMessageId }
      : {}),
    date: mail.context.clock.now(),
  });
}

export function registerGraphMessageRoutes(app: FastifyInstance, mail: MailServices): void {
  const now = () => mail.context.clock.now();

  app.get("/me/mailFolders", { config: { graphNeed: "read" } }, (request) => {
    const { mailbox } = graphCaller(request);
    return {
      "@odata.context": `${ROOT}/$metadata#users('${encodeURIComponent(mailbox.email)}')/mailFolders`,
      value: allFolders(mailbox).map((folder) => presentFolder(mailbox, folder)),
    };
  });

  // Creates a folder under the root (https://learn.microsoft.com/graph/api/user-post-mailfolders):
  // 201 with the mailFolder; a name taken (case-insensitively) answers 409 ErrorFolderExists.
  app.post("/me/mailFolders", { config: { graphNeed: "write" } }, (request, reply) => {
    const { mailbox } = graphCaller(request);
    const raw = bodyObject(request.body).displayName;
    const name = typeof raw === "string" ? raw.trim() : "";
    if (name === "" || name.length > 255) {
      return sendGraphError(reply, 400, "ErrorInvalidRequest", "The folder name is not valid.", now());
    }
    const taken = (existing: string) => existing.toLowerCase() === name.toLowerCase();
    const names = [
      ...WELL_KNOWN_FOLDERS.map((folder) => FOLDER_DISPLAY_NAMES[folder]),
      ...mailbox.customFolders.values(),
    ];
    if (names.some(taken)) {
      return sendGraphError(
        reply,
        409,
        "ErrorFolderExists",
        "A folder with the specified name already exists.",
        now(),
      );
    }
    const label: CustomFolder = `Folder_${mailbox.customFolders.size + 1}`;
    mailbox.customFolders.set(label, name);
    return reply.code(201).send(presentFolder(mailbox, label));
  });

  app.get<{ Params: { folder: string } }>(
    "/me/mailFolders/:folder",
    { config: { graphNeed: "read" } },
    (request, reply) => {
      const { mailbox } = graphCaller(request);
      const folder = resolveFolder(mailbox, request.params.folder);
      if (folder === undefined) return sendKnownGraphError(reply, "folderNotFound", now());
      return presentFolder(mailbox, folder);
    },
  );

  app.get<{ Params: { folder: string } }>(
    "/me/mailFolders/:folder/messages",
    { config: { graphNeed: "read" } },
    (request, reply) => {
      const { mailbox } = graphCaller(request);
      const folder = resolveFolder(mailbox, request.params.folder);
      if (folder === undefined) return sendKnownGraphError(reply, "folderNotFound", now());
      return listPage(
        mail,
        request,
        reply,
        mailbox.folderIndex(folder),
        `/me/mailFolders/${request.params.folder}/messages`,
      );
    },
  );

  app.get("/me/messages", { config: { graphNeed: "read" } }, (request, reply) =>
    listPage(mail, request, reply, graphCaller(request).mailbox.allIndex, "/me/messages"),
  );

  app.get<{ Params: { id: string } }>(
    "/me/messages/:id",
    { config: { graphNeed: "read" } },
    (request, reply) => {
      const { mailbox } = graphCaller(request);
      const message = findMessage(mailbox, request.params.id);
      if (message === undefined) return sendKnownGraphError(reply, "notFound", now());
      return presentMessage(mailbox, message, presentOptions(request));
    },
  );

  app.patch<{ Params: { id: string } }>(
    "/me/messages/:id",
    { config: { graphNeed: "write" } },
    (request, reply) => {
      const { mailbox } = graphCaller(request);
      const message = findMessage(mailbox, request.params.id);
      if (message === undefined) return sendKnownGraphError(reply, "notFound", now());
      const body = bodyObject(request.body);
      const add: string[] = [];
      const remove: string[] = [];
      if (typeof body.isRead === "boolean") (body.isRead ? remove : add).push("UNREAD");
      const flagStatus = bodyObject(body.flag).flagStatus;
      if (flagStatus !== undefined && !["notFlagged", "flagged", "complete"].includes(String(flagStatus))) {
        return sendGraphError(reply, 400, "ErrorInvalidArgument", "Invalid flagStatus.", now());
      }
      if (flagStatus === "flagged") add.push("STARRED");
      if (flagStatus === "notFlagged" || flagStatus === "complete") remove.push("STARRED");
      if (add.length > 0 || remove.length > 0) mailbox.modify(message.id, add, remove);
      if (message.labels.has("DRAFT")) {
        // Graph keeps a draft's id through edits; its stored text is rebuilt with the changes.
        const { identity } = graphCaller(request);
        mailbox.rewrite(
          message.id,
          draftRaw(message, patchedFields(draftFields(message), body), identity, now()),
        );
      }
      const categories = Array.isArray(body.categories) ? body.categories.map(String) : undefined;
      if (flagStatus !== undefined || categories !== undefined) {
        mailbox.update(message.id, {
          flagComplete: flagStatus === undefined ? undefined : flagStatus === "complete",
          ...(categories === undefined ? {} : { categories }),
        });
      }
      return presentMessage(mailbox, message, presentOptions(request));
    },
  );

  app.post<{ Params: { id: string } }>(
    "/me/messages/:id/move",
    { config: { graphNeed: "write" } },
    (request, reply) => {
      const { mailbox } = graphCaller(request);
      const message = findMessage(mailbox, request.params.id);
      if (message === undefined) return sendKnownGraphError(reply, "notFound", now());
      const destination = bodyObject(request.body).destinationId;
      const folder = typeof destination === "string" ? resolveFolder(mailbox, destination) : undefined;
      if (folder === undefined) return sendKnownGraphError(reply, "folderNotFound", now());
      if (folderOf(message.labels) !== folder) mailbox.move(message.id, folder);
      // Outlook answers with the moved item, which has a new id; the old id is gone.
      return reply.code(201).send(presentMessage(mailbox, message, presentOptions(request)));
    },
  );

  app.delete<{ Params: { id: string } }>(
    "/me/messages/:id",
    { config: { graphNeed: "write" } },
    (request, reply) => {
      const { mailbox } = graphCaller(request);
      const message = findMessage(mailbox, request.params.id);
      if (message === undefined) return sendKnownGraphError(reply, "notFound", now());
      // Outlook's DELETE moves to Deleted Items; deleting from there removes it for good.
      if (folderOf(message.labels) === "deleteditems") mailbox.delete(message.id);
      else mailbox.move(message.id, "deleteditems");
      return reply.code(204).send();
    },
  );

  app.post("/me/messages", { config: { graphNeed: "write" } }, (request, reply) => {
    const { mailbox, identity } = graphCaller(request);
    const raw = rawFromGraph(mail, identity, bodyObject(request.body));
    const stored = mailbox.add({ raw: () => raw, internalDate: now(), labelIds: ["DRAFT"] });
    return reply.code(201).send(presentMessage(mailbox, stored, presentOptions(request)));
  });

  // createReply / createReplyAll / createForward: a draft in Drafts, in the original's conversation
  // (same conversationId), with In-Reply-To/References, "RE:" or "FW:" and Graph's recipients:
  // the sender (reply); the sender, the other To and the Cc, never the mailbox itself (reply all);
  // none unless the request names them (forward). Body: optional { comment, message }.
  for (const action of ["createReply", "createReplyAll", "createForward"] as const) {
    app.post<{ Params: { id: string } }>(
      `/me/messages/:id/${action}`,
      { config: { graphNeed: "write" } },
      (request, reply) => {
        const { mailbox, identity } = graphCaller(request);
        const original = findMessage(mailbox, request.params.id);
        if (original === undefined) return sendKnownGraphError(reply, "notFound", now());
        const input = bodyObject(request.body);
        const message = bodyObject(input.message);
        const recipients = draftRecipients(action, original, identity.email, message);
        const prefix = action === "createForward" ? "FW: " : "RE: ";
        const already = action === "createForward" ? /^fwd?:/i : /^re:/i;
        const references = [original.headers.references, original.headers.messageId]
          .filter((v) => v !== "")
          .join(" ");
        const raw = composeMessage({
          from: { name: identity.name, address: identity.email },
          ...recipients,
          subject: already.test(original.headers.subject)
            ? original.headers.subject
            : `${prefix}${original.headers.subject}`,
          text: typeof input.comment === "string" ? input.comment : "",
          date: now(),
          ...(original.headers.messageId === "" ? {} : { inReplyTo: original.headers.messageId }),
          ...(references === "" ? {} : { references }),
        });
        const draft = mailbox.add({
          raw: () => raw,
          internalDate: now(),
          labelIds: ["DRAFT"],
          threadId: original.threadId,
        });
        // Graph's createForward copies the original's attachments onto the draft (its files, not
        // the images its HTML shows inline); a client removes the ones not to be forwarded.
        if (action === "createForward") {
          for (const part of attachmentParts(parseMime(toBinary(original.raw())))) {
            if (isInlinePart(part) || part.mimeType === "message/rfc822") continue;
            attach(draft, {
              name: part.filename || "Untitled attachment",
              contentType: part.mimeType,
              bytes: decodedBytes(part),
            });
          }
        }
        return reply.code(201).send(presentMessage(mailbox, draft, presentOptions(request)));
      },
    );
  }

  // Sends a draft: it leaves Drafts and a copy lands in Sent Items, threaded with its conversation.
  app.post<{ Params: { id: string } }>(
    "/me/messages/:id/send",
    { config: { graphNeed: "send" } },
    (request, reply) => {
      const { mailbox, identity } = graphCaller(request);
      const draft = findMessage(mailbox, request.params.id);
      if (draft === undefined) return sendKnownGraphError(reply, "notFound", now());
      if (!draft.labels.has("DRAFT")) {
        return sendGraphError(reply, 400, "ErrorInvalidOperation", "Only drafts can be sent.", now());
      }
      const fields = draftFields(draft);
      if (fields.to.length + fields.cc.length + fields.bcc.length === 0) {
        return sendGraphError(
          reply,
          400,
          "ErrorInvalidRecipients",
          "At least one recipient is not valid.",
          now(),
        );
      }
      const raw = draftRaw(draft, fields, identity, now(), draftFilesOf(draft));
      sendMessage(mail, identity, raw, { threadId: draft.threadId, saveCopy: true });
      mailbox.delete(draft.id);
      return reply.code(202).send();
    },
  );

  // POST /me/messages/{id}/reply: Graph builds the reply itself (recipient, "RE:" subject,
  // In-Reply-To/References, same conversation) around the caller's comment.
  app.post<{ Params: { id: string } }>(
    "/me/messages/:id/reply",
    { config: { graphNeed: "send" } },
    (request, reply) => {
      const { mailbox, identity } = graphCaller(request);
      const original = findMessage(mailbox, request.params.id);
      if (original === undefined) return sendKnownGraphError(reply, "notFound", now());
      const body = bodyObject(request.body);
      const override = bodyObject(body.message);
      const to = addresses(override.toRecipients);
      const sender = parseHeaderAddress(original.headers.from);
      const recipients = to.length > 0 ? to : sender ? [sender] : [];
      if (recipients.length === 0) {
        return sendGraphError(
          reply,
          400,
          "ErrorInvalidRecipients",
          "At least one recipient is not valid.",
          now(),
        );
      }
      const subject = /^re:/i.test(original.headers.subject)
        ? original.headers.subject
        : `RE: ${original.headers.subject}`;
      const references = [original.headers.references, original.headers.messageId]
        .filter((v) => v !== "")
        .join(" ");
      const raw = composeMessage({
        from: { name: identity.name, address: identity.email },
        to: recipients,
        cc: addresses(override.ccRecipients),
        bcc: addresses(override.bccRecipients),
        subject,
        text: typeof body.comment === "string" ? body.comment : "",
        date: now(),
        ...(original.headers.messageId === "" ? {} : { inReplyTo: original.headers.messageId }),
        ...(references === "" ? {} : { references }),
      });
      sendMessage(mail, identity, raw, { threadId: original.threadId, saveCopy: true });
      return reply.code(202).send();
    },
  );

  app.post("/me/sendMail", { config: { graphNeed: "send" } }, (request, reply) => {
    const { identity } = graphCaller(request);
    if (typeof request.body === "string") {
      // MIME format: the body is the base64 of an RFC 822 message (text/plain content type).
      const raw = Buffer.from(request.body.trim(), "base64").toString("utf8");
      if (!/^[!-9;-~]+:/m.test(raw) || !/^(to|cc|bcc):\s*\S/im.test(raw.split(/\r?\n\r?\n/)[0] ?? ""))
        return sendGraphError(
          reply,
          400,
          "ErrorMimeContentInvalidBase64String",
          "Invalid base64 string for MIME content.",
          now(),
        );
      sendMessage(mail, identity, raw, { saveCopy: true });
      return reply.code(202).send();
    }
    const body = bodyObject(request.body);
    const message = bodyObject(body.message);
    if (
      addresses(message.toRecipients).length +
        addresses(message.ccRecipients).length +
        addresses(message.bccRecipients).length ===
      0
    ) {
      return sendGraphError(
        reply,
        400,
        "ErrorInvalidRecipients",
        "At least one recipient is not valid.",
        now(),
      );
    }
    const raw = rawFromGraph(mail, identity, message);
    sendMessage(mail, identity, raw, { saveCopy: body.saveToSentItems !== false });
    return reply.code(202).send();
  });
}
