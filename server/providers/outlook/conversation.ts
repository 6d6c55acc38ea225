import type { Message } from "@microsoft/microsoft-graph-types";
import { type ProviderMessage, THREAD_MESSAGES_MAX } from "../mail-provider.ts";
import { checkGraphLink, type OutlookContext } from "./client.ts";
import { MESSAGE_SELECT } from "./mapper.ts";
import { type Collection, folderIds, mapWithAttachments, odataQuery, PREFER_HTML } from "./messages.ts";

/** Messages per page of the conversation listing. */
const PAGE = 100;

/**
 * A conversation's messages in every folder: /me/messages filtered by conversationId. Graph
 * refuses an $orderby on a property the $filter does not start with (InefficientFilter), so the
 * messages come unordered and are sorted here, oldest first.
 */
export async function getConversation(
  ctx: OutlookContext,
  conversationId: string,
): Promise<ProviderMessage[]> {
  const folders = await folderIds(ctx);
  const query = odataQuery({
    // An OData string literal doubles `'`.
    $filter: `conversationId eq '${conversationId.replace(/'/g, "''")}'`,
    $select: MESSAGE_SELECT,
    $top: String(PAGE),
  });
  let url: string | undefined = `${ctx.api}/me/messages?${query}`;
  const found: Message[] = [];
  while (url && found.length < THREAD_MESSAGES_MAX) {
    const page: Collection<Message> = await ctx.http.json<Collection<Message>>({
      method: "GET",
      url,
      headers: PREFER_HTML,
    });
    found.push(...(page.value ?? []));
    const next = page["@odata.nextLink"];
    url = next ? checkGraphLink(ctx, next) : undefined;
  }
  const mapped = await mapWithAttachments(ctx, found.slice(0, THREAD_MESSAGES_MAX), folders);
  return mapped.sort((a, b) => a.receivedAt.getTime() - b.receivedAt.getTime());
}
