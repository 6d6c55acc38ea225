import { runBatch } from "./batch.ts";
import type { GmailContext } from "./client.ts";
import { GMAIL_COSTS } from "./costs.ts";
import { classifyGmailError } from "./errors.ts";
import { ensureFlagLabel, findFlagLabel, forgetFlagLabel } from "./flag-label.ts";
import { checkId } from "./messages.ts";

/** batchModify takes up to 1,000 ids per call. */
const MODIFY_CHUNK = 1000;

/** Adds and removes labels on many messages, 1,000 per batchModify (50 units each). */
export async function modifyLabels(
  ctx: GmailContext,
  ids: readonly string[],
  add: readonly string[],
  remove: readonly string[],
): Promise<void> {
  const unique = [...new Set(ids)].map(checkId);
  for (let start = 0; start < unique.length; start += MODIFY_CHUNK) {
    await ctx.http.request({
      method: "POST",
      url: `${ctx.api}/messages/batchModify`,
      body: { ids: unique.slice(start, start + MODIFY_CHUNK), addLabelIds: add, removeLabelIds: remove },
      weight: GMAIL_COSTS.batchModify,
    });
  }
}

/** Gmail ids never change, so every action maps an id to itself. */
function sameIds(ids: readonly string[]): Map<string, string> {
  return new Map(ids.map((id) => [id, id]));
}

export async function archive(ctx: GmailContext, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length > 0) await modifyLabels(ctx, ids, [], ["INBOX"]);
  return sameIds(ids);
}

/** Back to the inbox, also out of trash or spam if it was there. */
export async function unarchive(ctx: GmailContext, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length > 0) await modifyLabels(ctx, ids, ["INBOX"], ["TRASH", "SPAM"]);
  return sameIds(ids);
}

export async function setRead(ctx: GmailContext, ids: readonly string[], read: boolean): Promise<void> {
  if (ids.length === 0) return;
  await modifyLabels(ctx, ids, read ? [] : ["UNREAD"], read ? ["UNREAD"] : []);
}

export async function setLabel(
  ctx: GmailContext,
  ids: readonly string[],
  label: string,
  on: boolean,
): Promise<void> {
  if (ids.length === 0) return;
  await modifyLabels(ctx, ids, on ? [label] : [], on ? [] : [label]);
}

export const setStarred = (ctx: GmailContext, ids: readonly string[], on: boolean) =>
  setLabel(ctx, ids, "STARRED", on);
/** Flags with the mailbox's own flag label (made on first use); unflagging without one is a no-op. */
export async function setFlagged(ctx: GmailContext, ids: readonly string[], on: boolean): Promise<void> {
  if (ids.length === 0) return;
  const label = on ? await ensureFlagLabel(ctx) : await findFlagLabel(ctx);
  if (label === undefined) return;
  try {
    await setLabel(ctx, ids, label, on);
  } catch (error) {
    // The person may have deleted the label in Gmail since we looked it up: look again, once.
    forgetFlagLabel(ctx);
    const again = on ? await ensureFlagLabel(ctx) : await findFlagLabel(ctx);
    if (again === undefined || again === label) throw error;
    await setLabel(ctx, ids, again, on);
  }
}

/**
 * messages.trash for each id, through the batch endpoint. An id that is already gone (404) is
 * not an error: the message is out of the inbox either way.
 */
export async function trash(ctx: GmailContext, ids: readonly string[]): Promise<Map<string, string>> {
  const unique = [...new Set(ids)].map(checkId);
  if (unique.length === 0) return new Map();
  const answers = await runBatch(
    ctx,
    unique.map((id, index) => ({
      id: `t${index}`,
      method: "POST" as const,
      path: `/gmail/v1/users/me/messages/${id}/trash`,
      cost: GMAIL_COSTS.messagesTrash,
    })),
  );
  for (const answer of answers.values()) {
    if (answer.status >= 300 && answer.status !== 404) throw classifyGmailError(answer);
  }
  return sameIds(ids);
}
