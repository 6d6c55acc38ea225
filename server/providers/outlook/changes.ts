import type { Message } from "@microsoft/microsoft-graph-types";
import { failureStatus } from "../http/errors.ts";
import { type ChangeBatch, CursorExpiredError } from "../mail-provider.ts";
import { checkGraphLink, type OutlookContext } from "./client.ts";
import { type Collection, fetchMessages } from "./messages.ts";

/** Changed items per listChanges call: each needs a full fetch, 20 per $batch. */
const DELTA_PAGE = 100;

type DeltaItem = Message & { "@removed"?: { reason?: string } };

async function deltaPage(ctx: OutlookContext, url: string, pageSize: number): Promise<Collection<DeltaItem>> {
  try {
    return await ctx.http.json<Collection<DeltaItem>>({
      method: "GET",
      url,
      headers: { prefer: `odata.maxpagesize=${pageSize}` },
    });
  } catch (err) {
    // 410 Gone (SyncStateNotFound): the delta token expired; only a full resync helps.
    if (failureStatus(err) === 410) throw new CursorExpiredError("Graph delta token expired", { cause: err });
    throw err;
  }
}

/**
 * A cursor for "changes from now on": runs the inbox delta to its end with only ids selected
 * (cheap pages; Graph has no `$deltatoken=latest` for messages) and keeps the deltaLink.
 */
export async function getCursor(ctx: OutlookContext): Promise<string> {
  let url = `${ctx.api}/me/mailFolders/inbox/messages/delta?$select=id`;
  for (let pages = 0; pages < 10_000; pages += 1) {
    const page = await deltaPage(ctx, url, 1000);
    const deltaLink = page["@odata.deltaLink"];
    if (deltaLink) return checkGraphLink(ctx, deltaLink);
    const nextLink = page["@odata.nextLink"];
    if (!nextLink) break;
    url = checkGraphLink(ctx, nextLink);
  }
  throw new CursorExpiredError("Graph delta ended without a deltaLink");
}

/**
 * One page of the inbox delta after `cursor` (a nextLink or deltaLink). `@removed` items (deleted,
 * or moved out of the inbox) are removed; the others are fetched in full, and ones that vanished
 * before the fetch count as removed too. hasMore while Graph gives a nextLink.
 */
export async function listChanges(ctx: OutlookContext, cursor: string): Promise<ChangeBatch> {
  let url: string;
  try {
    url = checkGraphLink(ctx, cursor);
  } catch (err) {
    throw new CursorExpiredError("Outlook cursor is not a Graph delta link", { cause: err });
  }
  const page = await deltaPage(ctx, url, DELTA_PAGE);
  const removed: string[] = [];
  const changed: string[] = [];
  for (const item of page.value ?? []) {
    if (!item.id) continue;
    if (item["@removed"]) removed.push(item.id);
    else changed.push(item.id);
  }
  const fetched = await fetchMessages(ctx, changed);
  const upserted = [];
  for (const id of changed) {
    const message = fetched.get(id);
    if (message) upserted.push(message);
    else removed.push(id);
  }
  const nextLink = page["@odata.nextLink"];
  const deltaLink = page["@odata.deltaLink"];
  const next = nextLink ?? deltaLink;
  return {
    upserted,
    removed: [...new Set(removed)],
    cursor: next ? checkGraphLink(ctx, next) : cursor,
    hasMore: Boolean(nextLink),
  };
}
