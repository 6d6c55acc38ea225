import type { gmail_v1 } from "@googleapis/gmail";
import type { FastifyInstance } from "fastify";
import { GMAIL_COSTS } from "../faults/quota.ts";
import type { ChangeKind, ChangeRecord, Mailbox } from "../mailbox/mailbox.ts";
import type { MailServices } from "../mailbox/services.ts";
import { gmailCaller } from "./caller.ts";
import { GMAIL_ERRORS, sendGoogleError } from "./errors.ts";
import { bodyObject, firstString, intParam, stringList } from "./params.ts";

const BASE = "/gmail/v1/users/:userId";

const SYSTEM_LABELS: { id: string; name: string; hidden?: boolean }[] = [
  { id: "CHAT", name: "CHAT", hidden: true },
  { id: "SENT", name: "SENT" },
  { id: "INBOX", name: "INBOX" },
  { id: "IMPORTANT", name: "IMPORTANT" },
  { id: "TRASH", name: "TRASH" },
  { id: "DRAFT", name: "DRAFT" },
  { id: "SPAM", name: "SPAM" },
  { id: "CATEGORY_FORUMS", name: "CATEGORY_FORUMS" },
  { id: "CATEGORY_UPDATES", name: "CATEGORY_UPDATES" },
  { id: "CATEGORY_PERSONAL", name: "CATEGORY_PERSONAL" },
  { id: "CATEGORY_PROMOTIONS", name: "CATEGORY_PROMOTIONS" },
  { id: "CATEGORY_SOCIAL", name: "CATEGORY_SOCIAL" },
  { id: "STARRED", name: "STARRED" },
  { id: "UNREAD", name: "UNREAD" },
];

function presentLabel(
  mailbox: Mailbox,
  id: string,
  name: string,
  type: "system" | "user",
): gmail_v1.Schema$Label {
  const counts = mailbox.labelCounts(id);
  const label: gmail_v1.Schema$Label = { id, name, type };
  if (type === "user") {
    label.messageListVisibility = "show";
    label.labelListVisibility = "labelShow";
  }
  label.messagesTotal = counts.total;
  label.messagesUnread = counts.unread;
  // Counting threads per label would cost a scan; messages are a close, cheap stand-in.
  label.threadsTotal = counts.total;
  label.threadsUnread = counts.unread;
  return label;
}

const HISTORY_TYPES: Record<string, ChangeKind> = {
  messageAdded: "messageAdded",
  messageDeleted: "messageDeleted",
  labelAdded: "labelAdded",
  labelRemoved: "labelRemoved",
};

function presentHistory(record: ChangeRecord): gmail_v1.Schema$History {
  const message = { id: record.messageId, threadId: record.threadId, labelIds: [...record.labelsAfter] };
  const history: gmail_v1.Schema$History = {
    id: String(record.id),
    messages: [{ id: record.messageId, threadId: record.threadId }],
  };
  if (record.kind === "messageAdded") history.messagesAdded = [{ message }];
  if (record.kind === "messageDeleted")
    history.messagesDeleted = [{ message: { id: record.messageId, threadId: record.threadId } }];
  if (record.kind === "labelAdded") history.labelsAdded = [{ message, labelIds: [...record.labelIds] }];
  if (record.kind === "labelRemoved") history.labelsRemoved = [{ message, labelIds: [...record.labelIds] }];
  return history;
}

export function registerGmailMailboxRoutes(app: FastifyInstance, mail: MailServices): void {
  app.get(
    `${BASE}/profile`,
    { config: { gmailCost: GMAIL_COSTS.getProfile, gmailNeed: "read" } },
    (request) => {
      const { mailbox, identity } = gmailCaller(request);
      const profile: gmail_v1.Schema$Profile = {
        emailAddress: identity.email,
        messagesTotal: mailbox.size,
        threadsTotal: mailbox.threadCount,
        historyId: String(mailbox.historyId),
      };
      return profile;
    },
  );

  app.get(
    `${BASE}/labels`,
    { config: { gmailCost: GMAIL_COSTS.labelsList, gmailNeed: "read" } },
    (request) => {
      const { mailbox } = gmailCaller(request);
      const labels = SYSTEM_LABELS.map((label) => presentLabel(mailbox, label.id, label.name, "system"));
      for (const [id, name] of mailbox.userLabels) labels.push(presentLabel(mailbox, id, name, "user"));
      return { labels };
    },
  );

  // labels.create: user labels, named uniquely (case-insensitively, as Gmail compares them).
  app.post(
    `${BASE}/labels`,
    { config: { gmailCost: GMAIL_COSTS.labelsCreate, gmailNeed: "modify" } },
    (request, reply) => {
      const { mailbox } = gmailCaller(request);
      const name = firstString(bodyObject(request.body).name)?.trim() ?? "";
      if (name === "" || name.length > 225)
        return sendGoogleError(reply, GMAIL_ERRORS.invalidArgument("Invalid label name"));
      const taken = (existing: string) => existing.toLowerCase() === name.toLowerCase();
      if (SYSTEM_LABELS.some((label) => taken(label.name)) || [...mailbox.userLabels.values()].some(taken))
        return sendGoogleError(reply, GMAIL_ERRORS.labelExists());
      const id = `Label_${mailbox.userLabels.size + 1}`;
      mailbox.userLabels.set(id, name);
      return presentLabel(mailbox, id, name, "user");
    },
  );

  app.get<{ Params: { userId: string; id: string } }>(
    `${BASE}/labels/:id`,
    { config: { gmailCost: GMAIL_COSTS.labelsGet, gmailNeed: "read" } },
    (request, reply) => {
      const { mailbox } = gmailCaller(request);
      const system = SYSTEM_LABELS.find((label) => label.id === request.params.id);
      if (system !== undefined) return presentLabel(mailbox, system.id, system.name, "system");
      const name = mailbox.userLabels.get(request.params.id);
      if (name === undefined) return sendGoogleError(reply, GMAIL_ERRORS.notFound());
      return presentLabel(mailbox, request.params.id, name, "user");
    },
  );

  app.get(
    `${BASE}/history`,
    { config: { gmailCost: GMAIL_COSTS.historyList, gmailNeed: "read" } },
    (request, reply) => {
      const { mailbox } = gmailCaller(request);
      const query = request.query as Record<string, unknown>;
      const start = firstString(query.startHistoryId);
      if (start === undefined)
        return sendGoogleError(reply, GMAIL_ERRORS.invalidArgument("Missing startHistoryId"));
      if (!/^\d+$/.test(start))
        return sendGoogleError(reply, GMAIL_ERRORS.invalidArgument("Invalid startHistoryId"));
      const maxResults = intParam(query.maxResults, 100, 1, 500);
      if (Number.isNaN(maxResults))
        return sendGoogleError(reply, GMAIL_ERRORS.invalidArgument("Invalid maxResults"));
      const pageToken = firstString(query.pageToken);
      if (pageToken !== undefined && !/^\d+$/.test(pageToken)) {
        return sendGoogleError(reply, GMAIL_ERRORS.invalidArgument("Invalid pageToken"));
      }
      const types = stringList(query.historyTypes).map((type) => HISTORY_TYPES[type]);
      if (types.includes(undefined))
        return sendGoogleError(reply, GMAIL_ERRORS.invalidArgument("Invalid historyTypes"));
      const labelId = firstString(query.labelId);
      // The page token is the last history id already returned; it must still be retained too.
      const changes = mailbox.changesSince(Number(pageToken ?? start));
      if (changes === undefined) return sendGoogleError(reply, GMAIL_ERRORS.notFound());
      const history: gmail_v1.Schema$History[] = [];
      let next: string | undefined;
      for (const record of changes) {
        if (record.kind === "updated") continue;
        if (types.length > 0 && !types.includes(record.kind)) continue;
        if (
          labelId !== undefined &&
          !record.labelsAfter.includes(labelId) &&
          !record.labelIds.includes(labelId)
        )
          continue;
        if (history.length === maxResults) {
          next = history[history.length - 1]?.id ?? undefined;
          break;
        }
        history.push(presentHistory(record));
      }
      const out: gmail_v1.Schema$ListHistoryResponse = { historyId: String(mailbox.historyId) };
      if (history.length > 0) out.history = history;
      if (next !== undefined) out.nextPageToken = next;
      return out;
    },
  );

  app.post(
    `${BASE}/watch`,
    { config: { gmailCost: GMAIL_COSTS.watch, gmailNeed: "read" } },
    (request, reply) => {
      const body = bodyObject(request.body);
      const topicName = typeof body.topicName === "string" ? body.topicName : "";
      if (!/^projects\/[^/]+\/topics\/[^/]+$/.test(topicName)) {
        return sendGoogleError(
          reply,
          GMAIL_ERRORS.invalidArgument(
            "Invalid topicName does not match projects/SOME-PROJECT/topics/SOME-TOPIC",
          ),
        );
      }
      const behavior =
        body.labelFilterBehavior === "EXCLUDE" || body.labelFilterAction === "exclude"
          ? "EXCLUDE"
          : "INCLUDE";
      const { mailbox } = gmailCaller(request);
      const watch = mail.gmailPush.watch(mailbox, {
        topicName,
        labelIds: stringList(body.labelIds),
        labelFilterBehavior: behavior,
      });
      const out: gmail_v1.Schema$WatchResponse = {
        historyId: String(mailbox.historyId),
        expiration: String(watch.expiration),
      };
      return out;
    },
  );

  app.post(
    `${BASE}/stop`,
    { config: { gmailCost: GMAIL_COSTS.stop, gmailNeed: "read" } },
    (request, reply) => {
      mail.gmailPush.stop(gmailCaller(request).mailbox);
      return reply.code(204).send();
    },
  );
}
