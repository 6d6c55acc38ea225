import { decodeWords, headerValue, parseHeaderBlock, splitHeaderBlock } from "./headers.ts";

/** The header fields the store searches and lists by, decoded once when a message arrives. */
export interface IndexedHeaders {
  readonly from: string;
  readonly to: string;
  readonly cc: string;
  readonly subject: string;
  readonly date: string;
  /** With angle brackets, as it appears in In-Reply-To/References. */
  readonly messageId: string;
  readonly inReplyTo: string;
  readonly references: string;
  readonly listUnsubscribe: string;
}

/** Reads only the header block, so indexing a mailbox never parses bodies. */
export function indexHeaders(raw: string): IndexedHeaders {
  const fields = parseHeaderBlock(splitHeaderBlock(raw).head);
  const get = (name: string) => headerValue(fields, name) ?? "";
  return {
    from: decodeWords(get("from")),
    to: decodeWords(get("to")),
    cc: decodeWords(get("cc")),
    subject: decodeWords(get("subject")),
    date: get("date"),
    messageId: get("message-id").trim(),
    inReplyTo: get("in-reply-to").trim(),
    references: get("references").trim(),
    listUnsubscribe: get("list-unsubscribe"),
  };
}
