import type { gmail_v1 } from "@googleapis/gmail";
import { failureStatus } from "../http/errors.ts";
import { type ChangeBatch, CursorExpiredError } from "../mail-provider.ts";
import type { GmailContext } from "./client.ts";
import { GMAIL_COSTS } from "./costs.ts";
import { fetchMessages } from "./messages.ts";

const HISTORY_TYPES = ["messageAdded", "messageDeleted", "labelAdded", "labelRemoved"];

function later(a: string, b: string): string {
  return BigInt(a) >= BigInt(b) ? a : b;
}

/** The final fate of each message in a page of history, in order: the last event wins. */
export function foldHistory(history: readonly gmail_v1.Schema$History[]): Map<string, "upsert" | "removed"> {
  const fate = new Map<string, "upsert" | "removed">();
  const mark = (refs: { message?: gmail_v1.Schema$Message }[] | undefined, what: "upsert" | "removed") => {
    for (const ref of refs ?? []) {
      const id = ref.message?.id;
      if (!id) continue;
      // Once deleted, a Gmail id never comes back.
      if (fate.get(id) === "removed") continue;
      fate.set(id, what);
    }
  };
  for (const entry of history) {
    mark(entry.messagesAdded ?? undefined, "upsert");
    mark(entry.labelsAdded ?? undefined, "upsert");
    mark(entry.labelsRemoved ?? undefined, "upsert");
    mark(entry.messagesDeleted ?? undefined, "removed");
  }
  return fate;
}

/**
 * One page of history.list after `cursor` (a historyId). Changed messages are fetched in full
 * (batch) and returned as upserted; deleted ones, and ones that vanished before we fetched them,
 * as removed. While Gmail has more pages, the cursor is the last history id of this page, so a
 * crash between pages repeats at most one page. 404 = the history id is too old: full resync.
 */
export async function listChanges(ctx: GmailContext, cursor: string): Promise<ChangeBatch> {
  if (!/^\d{1,20}$/.test(cursor)) throw new CursorExpiredError("Gmail cursor is not a history id");
  const params = new URLSearchParams({ startHistoryId: cursor, maxResults: "500" });
  for (const type of HISTORY_TYPES) params.append("historyTypes", type);
  let page: gmail_v1.Schema$ListHistoryResponse;
  try {
    page = await ctx.http.json<gmail_v1.Schema$ListHistoryResponse>({
      method: "GET",
      url: `${ctx.api}/history?${params.toString()}`,
      weight: GMAIL_COSTS.historyList,
    });
  } catch (err) {
    if (failureStatus(err) === 404) throw new CursorExpiredError("Gmail history id expired", { cause: err });
    throw err;
  }
  const history = page.history ?? [];
  const fate = foldHistory(history);
  const upsertIds = [...fate].flatMap(([id, what]) => (what === "upsert" ? [id] : []));
  const removed = [...fate].flatMap(([id, what]) => (what === "removed" ? [id] : []));
  const fetched = await fetchMessages(ctx, upsertIds);
  const upserted = [];
  for (const id of upsertIds) {
    const message = fetched.get(id);
    if (message) upserted.push(message);
    else removed.push(id);
  }
  const lastId = history[history.length - 1]?.id;
  const hasMore = Boolean(page.nextPageToken) && lastId !== undefined && lastId !== null;
  const next = hasMore && lastId ? lastId : (page.historyId ?? cursor);
  return { upserted, removed, cursor: later(next, cursor), hasMore };
}
