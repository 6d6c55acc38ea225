import type { AnalyzerAddress, AnalyzerInput } from "./types.ts";

/**
 * The most of each sender-controlled field the analyzer reads (issue 34: no mail may cost
 * unbounded CPU). Real mail is far below every cap: a display name of a few words, a subject
 * under one header line (998 characters), bodies whose content is read in their first 20,000
 * characters anyway; past these, hostile text costs time (some rules are quadratic in their
 * input) and adds nothing the reader would see.
 */
const MAX_NAME = 256;
const MAX_ADDRESS = 320;
const MAX_ADDRESSES = 100;
const MAX_SUBJECT = 1_000;
const MAX_SNIPPET = 1_000;
const MAX_BODY_TEXT = 100_000;
const MAX_BODY_HTML = 300_000;
const MAX_HEADER = 4_000;
const MAX_ATTACHMENTS = 100;

function cut(text: string, max: number): string;
function cut(text: string | null | undefined, max: number): string | null | undefined;
function cut(text: string | null | undefined, max: number): string | null | undefined {
  return typeof text === "string" && text.length > max ? text.slice(0, max) : text;
}

function boundAddress(a: AnalyzerAddress): AnalyzerAddress {
  return { name: cut(a.name, MAX_NAME), address: cut(a.address, MAX_ADDRESS) };
}

const boundList = (list: readonly AnalyzerAddress[] | undefined) =>
  list?.slice(0, MAX_ADDRESSES).map(boundAddress);

/** The input with every sender-controlled field cut to what the analyzer reads. */
export function boundInput(input: AnalyzerInput): AnalyzerInput {
  const headers = input.headers;
  return {
    ...input,
    from: boundAddress(input.from),
    to: boundList(input.to),
    cc: boundList(input.cc),
    replyTo: boundList(input.replyTo),
    subject: cut(input.subject, MAX_SUBJECT),
    bodyText: cut(input.bodyText, MAX_BODY_TEXT) ?? null,
    bodyHtml: cut(input.bodyHtml, MAX_BODY_HTML) ?? null,
    snippet: input.snippet?.slice(0, MAX_SNIPPET),
    headers: headers && {
      listUnsubscribe: cut(headers.listUnsubscribe, MAX_HEADER),
      listId: cut(headers.listId, MAX_HEADER),
      precedence: cut(headers.precedence, MAX_HEADER),
      autoSubmitted: cut(headers.autoSubmitted, MAX_HEADER),
      authenticationResults: cut(headers.authenticationResults, MAX_HEADER),
      inReplyTo: cut(headers.inReplyTo, MAX_HEADER),
    },
    attachments: input.attachments?.slice(0, MAX_ATTACHMENTS).map((a) => ({
      ...a,
      filename: cut(a.filename, MAX_NAME),
    })),
  };
}
