import type { FastifyReply } from "fastify";
import { GMAIL_ERRORS, sendGoogleError } from "./errors.ts";
import { PageTokenError } from "./list.ts";
import { booleanParam, firstString, intParam, stringList } from "./params.ts";
import { QueryError } from "./query.ts";

/** The page a list call asks for (messages.list, threads.list, drafts.list share the parameters). */
export interface ListQuery {
  q: string | undefined;
  labelIds: string[];
  pageToken: string | undefined;
  maxResults: number;
  includeSpamTrash: boolean;
}

/**
 * A Gmail list answer: maxResults checked (1 to 500, default 100), then `list` run for the page
 * asked; a bad page token or search query is Gmail's 400 invalidArgument, as on every list call.
 */
export function answerList<T>(
  reply: FastifyReply,
  query: Record<string, unknown>,
  list: (page: ListQuery) => T,
): T | FastifyReply {
  const maxResults = intParam(query.maxResults, 100, 1, 500);
  if (Number.isNaN(maxResults))
    return sendGoogleError(reply, GMAIL_ERRORS.invalidArgument("Invalid maxResults"));
  try {
    return list({
      q: firstString(query.q),
      labelIds: stringList(query.labelIds),
      pageToken: firstString(query.pageToken),
      maxResults,
      includeSpamTrash: booleanParam(query.includeSpamTrash),
    });
  } catch (error) {
    if (error instanceof PageTokenError || error instanceof QueryError)
      return sendGoogleError(reply, GMAIL_ERRORS.invalidArgument(error.message));
    throw error;
  }
}
