import type { MailFolder } from "@microsoft/microsoft-graph-types";
import { moveTo } from "./actions.ts";
import type { OutlookContext } from "./client.ts";

/**
 * Snooze on Outlook (issue 37): Graph has no snooze, so a snoozed message moves to a mail folder
 * of this name under the root, made the first time (POST /me/mailFolders). Graph gives a moved
 * message a new id: callers re-key their rows by the old -> new map moveTo answers.
 */
export const OUTLOOK_SNOOZED_FOLDER_NAME = "Snoozed";

const known = new Map<string, string>();

async function findSnoozedFolder(ctx: OutlookContext): Promise<string | undefined> {
  const page = await ctx.http.json<{ value?: MailFolder[] }>({
    method: "GET",
    url: `${ctx.api}/me/mailFolders?$top=250&$select=id,displayName`,
  });
  const wanted = OUTLOOK_SNOOZED_FOLDER_NAME.toLowerCase();
  return page.value?.find((folder) => folder.displayName?.toLowerCase() === wanted)?.id ?? undefined;
}

async function ensureSnoozedFolder(ctx: OutlookContext, key: string): Promise<string> {
  const cached = known.get(key);
  if (cached !== undefined) return cached;
  let id = await findSnoozedFolder(ctx);
  if (id === undefined) {
    try {
      const made = await ctx.http.json<MailFolder>({
        method: "POST",
        url: `${ctx.api}/me/mailFolders`,
        body: { displayName: OUTLOOK_SNOOZED_FOLDER_NAME, isHidden: false },
      });
      id = made.id ?? undefined;
    } catch (error) {
      // 409 ErrorFolderExists: made between our look and our create.
      id = await findSnoozedFolder(ctx);
      if (id === undefined) throw error;
    }
  }
  if (id === undefined) throw new Error("Graph created the Snoozed folder without an id");
  known.set(key, id);
  return id;
}

/**
 * Into the Snoozed folder. Answers old id -> new id for the messages moved; a message Graph no
 * longer has (deleted meanwhile) is left out. `key` names the mailbox for the folder id's cache.
 */
export async function snooze(
  ctx: OutlookContext,
  key: string,
  ids: readonly string[],
): Promise<Map<string, string>> {
  const folder = await ensureSnoozedFolder(ctx, key);
  try {
    return await moveTo(ctx, ids, folder);
  } catch (error) {
    // The person may have deleted the folder in Outlook: look again (or make it anew), once.
    known.delete(key);
    const again = await ensureSnoozedFolder(ctx, key);
    if (again === folder) throw error;
    return moveTo(ctx, ids, again);
  }
}

/** Back to the Inbox (new ids, as any move). */
export function unsnooze(ctx: OutlookContext, ids: readonly string[]): Promise<Map<string, string>> {
  return moveTo(ctx, ids, "inbox");
}
