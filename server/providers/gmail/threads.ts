import type { gmail_v1 } from "@googleapis/gmail";
import { failureStatus, ProviderRequestError } from "../http/errors.ts";
import { type ProviderMessage, THREAD_MESSAGES_MAX } from "../mail-provider.ts";
import type { GmailContext } from "./client.ts";
import { GMAIL_COSTS } from "./costs.ts";
import { mapWithBodies } from "./messages.ts";

/** Gmail thread ids are message ids: hex. */
const THREAD_ID = /^[0-9a-f]{1,20}$/i;

/**
 * threads.get (format=full, 10 units): the thread's messages oldest first, as Gmail gives them,
 * trash and spam included; [] when Gmail knows no such thread (404).
 */
export async function getThread(ctx: GmailContext, threadId: string): Promise<ProviderMessage[]> {
  if (!THREAD_ID.test(threadId)) throw new ProviderRequestError("permanent", "invalid Gmail thread id");
  let thread: gmail_v1.Schema$Thread;
  try {
    thread = await ctx.http.json<gmail_v1.Schema$Thread>({
      method: "GET",
      url: `${ctx.api}/threads/${threadId}?format=full`,
      weight: GMAIL_COSTS.threadsGet,
    });
  } catch (err) {
    if (failureStatus(err) === 404) return [];
    throw err;
  }
  const messages = (thread.messages ?? []).slice(0, THREAD_MESSAGES_MAX);
  return mapWithBodies(ctx, messages, "get");
}
