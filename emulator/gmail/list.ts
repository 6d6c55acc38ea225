import type { gmail_v1 } from "@googleapis/gmail";
import type { Mailbox, StoredMessage } from "../mailbox/mailbox.ts";
import type { OrderKey, SortedIndex } from "../mailbox/sorted-index.ts";
import { searchText } from "./present.ts";
import { parseGmailQuery } from "./query.ts";

export interface ListInput {
  q: string | undefined;
  labelIds: readonly string[];
  pageToken: string | undefined;
  maxResults: number;
  includeSpamTrash: boolean;
  now: number;
}

export class PageTokenError extends Error {}

function encodeToken(message: StoredMessage): string {
  return Buffer.from(`${message.internalDate}.${message.seq}`).toString("base64url");
}

function decodeToken(token: string): OrderKey {
  const match = /^(-?\d+)\.(\d+)$/.exec(Buffer.from(token, "base64url").toString("utf8"));
  if (match === null) throw new PageTokenError("Invalid pageToken");
  return { internalDate: Number(match[1]), seq: Number(match[2]) };
}

/** The index to walk and the test a message must pass, for messages.list and threads.list. */
export function listMatcher(
  mailbox: Mailbox,
  input: Omit<ListInput, "pageToken" | "maxResults">,
): { index: SortedIndex<StoredMessage>; matches: (message: StoredMessage) => boolean } | undefined {
  const query = parseGmailQuery(input.q, input.now);
  const required = [...input.labelIds];
  if (query.requiredLabel !== undefined) required.push(query.requiredLabel);
  let index: SortedIndex<StoredMessage> = mailbox.allIndex;
  for (const label of required) {
    const candidate = mailbox.labelIndex(label);
    if (candidate === undefined) return undefined;
    if (candidate.size < index.size) index = candidate;
  }
  const wantsSpamTrash =
    input.includeSpamTrash ||
    query.includesSpamTrash ||
    input.labelIds.some((label) => label === "SPAM" || label === "TRASH");
  const trivial = input.q === undefined || input.q.trim() === "";
  const matches = (message: StoredMessage) =>
    input.labelIds.every((label) => message.labels.has(label)) &&
    (wantsSpamTrash || !(message.labels.has("SPAM") || message.labels.has("TRASH"))) &&
    (trivial || query.test(message, () => searchText(message)));
  return { index, matches };
}

export function encodeListToken(message: StoredMessage): string {
  return encodeToken(message);
}

export function decodeListToken(token: string): OrderKey {
  return decodeToken(token);
}

/**
 * messages.list: newest first, walking the smallest matching index and resuming after the last
 * returned message, so every page costs about its own size.
 */
export function listMessages(mailbox: Mailbox, input: ListInput): gmail_v1.Schema$ListMessagesResponse {
  const matcher = listMatcher(mailbox, input);
  if (matcher === undefined) return { resultSizeEstimate: 0 };
  const { index, matches } = matcher;

  const after = input.pageToken === undefined ? undefined : decodeToken(input.pageToken);
  const page: StoredMessage[] = [];
  let scanned = 0;
  let more = false;
  for (const message of index.newestFirst(after)) {
    scanned += 1;
    if (!matches(message)) continue;
    if (page.length === input.maxResults) {
      more = true;
      break;
    }
    page.push(message);
  }
  const last = page[page.length - 1];
  // Gmail's estimate is rough too: extrapolate from what the page scan saw.
  const ratio = scanned === 0 ? 0 : page.length / scanned;
  const estimate = more ? Math.max(page.length + 1, Math.round(ratio * index.size)) : page.length;
  const out: gmail_v1.Schema$ListMessagesResponse = {
    resultSizeEstimate: input.pageToken === undefined ? estimate : Math.max(estimate, page.length),
  };
  if (page.length > 0) out.messages = page.map((message) => ({ id: message.id, threadId: message.threadId }));
  if (more && last !== undefined) out.nextPageToken = encodeToken(last);
  return out;
}
