import type { gmail_v1 } from "@googleapis/gmail";
import type { FastifyInstance } from "fastify";
import { GMAIL_COSTS } from "../faults/quota.ts";
import type { Mailbox, StoredMessage } from "../mailbox/mailbox.ts";
import type { MailServices } from "../mailbox/services.ts";
import { gmailCaller } from "./caller.ts";
import { GMAIL_ERRORS, sendGoogleError } from "./errors.ts";
import { decodeListToken, encodeListToken, listMatcher } from "./list.ts";
import { answerList } from "./list-route.ts";
import { firstString, stringList } from "./params.ts";
import { type MessageFormat, presentMessage } from "./present.ts";

const BASE = "/gmail/v1/users/:userId";
/** threads.get takes these formats (raw is messages.get only). */
const FORMATS = new Set(["minimal", "metadata", "full"]);

/** A thread's history id is its newest change: the largest of its messages'. */
function threadHistoryId(messages: readonly StoredMessage[]): string {
  return String(Math.max(0, ...messages.map((m) => m.historyId)));
}

/** The thread's snippet, as Gmail shows it in lists: its newest message's. */
function threadSnippet(messages: readonly StoredMessage[]): string {
  const newest = messages[messages.length - 1];
  return newest === undefined ? "" : (presentMessage(newest, "minimal").snippet ?? "");
}

export interface ThreadListInput {
  q: string | undefined;
  labelIds: readonly string[];
  pageToken: string | undefined;
  maxResults: number;
  includeSpamTrash: boolean;
  now: number;
}

/**
 * threads.list: threads that have a matching message, newest matching message first, each once.
 * A thread is listed at its newest matching message; the page token is the last listed thread's
 * position, and a resumed walk skips messages whose thread has a newer match (listed already).
 */
export function listThreads(mailbox: Mailbox, input: ThreadListInput): gmail_v1.Schema$ListThreadsResponse {
  const matcher = listMatcher(mailbox, input);
  if (matcher === undefined) return { resultSizeEstimate: 0 };
  const { index, matches } = matcher;
  const after = input.pageToken === undefined ? undefined : decodeListToken(input.pageToken);
  const seen = new Set<string>();
  const page: StoredMessage[] = [];
  let more = false;
  const newerMatch = (message: StoredMessage) =>
    mailbox
      .thread(message.threadId)
      .some(
        (other) =>
          other !== message &&
          (other.internalDate > message.internalDate ||
            (other.internalDate === message.internalDate && other.seq > message.seq)) &&
          matches(other),
      );
  for (const message of index.newestFirst(after)) {
    if (seen.has(message.threadId) || !matches(message)) continue;
    seen.add(message.threadId);
    // On a later page, a thread whose newer match came before the token was listed already.
    if (after !== undefined && newerMatch(message)) continue;
    if (page.length === input.maxResults) {
      more = true;
      break;
    }
    page.push(message);
  }
  const out: gmail_v1.Schema$ListThreadsResponse = { resultSizeEstimate: page.length + (more ? 1 : 0) };
  if (page.length > 0) {
    out.threads = page.map((message) => {
      const messages = mailbox.thread(message.threadId);
      return { id: message.threadId, snippet: threadSnippet(messages), historyId: threadHistoryId(messages) };
    });
  }
  const last = page[page.length - 1];
  if (more && last !== undefined) out.nextPageToken = encodeListToken(last);
  return out;
}

/** threads.get: every message of the thread oldest first (trash and spam ones too), in `format`. */
export function getThread(
  mailbox: Mailbox,
  id: string,
  format: MessageFormat,
  metadataHeaders: readonly string[],
): gmail_v1.Schema$Thread | undefined {
  if (!/^[0-9a-f]{1,20}$/i.test(id)) return undefined;
  const messages = mailbox.thread(id);
  if (messages.length === 0) return undefined;
  return {
    id,
    snippet: threadSnippet(messages),
    historyId: threadHistoryId(messages),
    messages: messages.map((message) => presentMessage(message, format, metadataHeaders)),
  };
}

export function registerGmailThreadRoutes(app: FastifyInstance, mail: MailServices): void {
  app.get(
    `${BASE}/threads`,
    { config: { gmailCost: GMAIL_COSTS.threadsList, gmailNeed: "read" } },
    (request, reply) => {
      const { mailbox } = gmailCaller(request);
      return answerList(reply, request.query as Record<string, unknown>, (page) =>
        listThreads(mailbox, { ...page, now: mail.context.clock.now() }),
      );
    },
  );

  app.get<{ Params: { userId: string; id: string } }>(
    `${BASE}/threads/:id`,
    { config: { gmailCost: GMAIL_COSTS.threadsGet, gmailNeed: "read" } },
    (request, reply) => {
      const query = request.query as Record<string, unknown>;
      const format = firstString(query.format) ?? "full";
      if (!FORMATS.has(format))
        return sendGoogleError(reply, GMAIL_ERRORS.invalidArgument(`Invalid format: ${format}`));
      const thread = getThread(
        gmailCaller(request).mailbox,
        request.params.id,
        format as MessageFormat,
        stringList(query.metadataHeaders),
      );
      return thread === undefined ? sendGoogleError(reply, GMAIL_ERRORS.notFound()) : thread;
    },
  );
}
