import type { gmail_v1 } from "@googleapis/gmail";
import { runBatch } from "./batch.ts";
import type { GmailContext } from "./client.ts";
import { GMAIL_COSTS } from "./costs.ts";
import { classifyGmailError } from "./errors.ts";
import { checkId } from "./messages.ts";

/**
 * Snooze on Gmail (issue 37): Gmail's API has no snooze, so a snoozed message leaves INBOX and
 * carries a user label of this name, made the first time (labels.create). The person sees it in
 * Gmail under "Snoozed"; at its time the label goes and INBOX comes back.
 */
export const GMAIL_SNOOZED_LABEL_NAME = "Snoozed";

const known = new Map<string, string>();

async function listSnoozedLabel(ctx: GmailContext): Promise<string | undefined> {
  const { labels } = await ctx.http.json<gmail_v1.Schema$ListLabelsResponse>({
    method: "GET",
    url: `${ctx.api}/labels`,
    weight: GMAIL_COSTS.labelsList,
  });
  const wanted = GMAIL_SNOOZED_LABEL_NAME.toLowerCase();
  return (
    labels?.find((label) => label.type === "user" && label.name?.toLowerCase() === wanted)?.id ?? undefined
  );
}

/** The Snoozed label's id, made now if the mailbox has none (a concurrent maker's is reused). */
async function ensureSnoozedLabel(ctx: GmailContext, fresh = false): Promise<string> {
  const cached = fresh ? undefined : known.get(ctx.accountKey);
  if (cached !== undefined) return cached;
  let id = await listSnoozedLabel(ctx);
  if (id === undefined) {
    try {
      const made = await ctx.http.json<gmail_v1.Schema$Label>({
        method: "POST",
        url: `${ctx.api}/labels`,
        body: {
          name: GMAIL_SNOOZED_LABEL_NAME,
          labelListVisibility: "labelShow",
          messageListVisibility: "show",
        },
        weight: GMAIL_COSTS.labelsCreate,
      });
      id = made.id ?? undefined;
    } catch (error) {
      // 409: made between our list and our create; anything else stays an error.
      id = await listSnoozedLabel(ctx);
      if (id === undefined) throw error;
    }
  }
  if (id === undefined) throw new Error("Gmail created the Snoozed label without an id");
  known.set(ctx.accountKey, id);
  return id;
}

/**
 * messages.modify per id through the batch endpoint, so each message answers for itself: the
 * ids Gmail no longer has (404, deleted meanwhile) are left out of the answer, the rest map to
 * themselves (Gmail ids never change).
 */
async function modifyEach(
  ctx: GmailContext,
  ids: readonly string[],
  add: readonly string[],
  remove: readonly string[],
): Promise<{ done: Map<string, string>; labelGone: boolean }> {
  const unique = [...new Set(ids)].map(checkId);
  const done = new Map<string, string>();
  if (unique.length === 0) return { done, labelGone: false };
  const answers = await runBatch(
    ctx,
    unique.map((id, index) => ({
      id: `m${index}`,
      method: "POST" as const,
      path: `/gmail/v1/users/me/messages/${id}/modify`,
      body: { addLabelIds: add, removeLabelIds: remove },
      cost: GMAIL_COSTS.messagesModify,
    })),
  );
  let labelGone = false;
  unique.forEach((id, index) => {
    const answer = answers.get(`m${index}`);
    if (!answer) return;
    if (answer.status < 300) done.set(id, id);
    // A label deleted in Gmail since we looked it up: 400 "Invalid label" (retried with a fresh one).
    else if (answer.status === 400) labelGone = true;
    else if (answer.status !== 404) throw classifyGmailError(answer);
  });
  return { done, labelGone };
}

/** Out of INBOX, into Snoozed. Answers the ids still there (a deleted message is left out). */
export async function snooze(ctx: GmailContext, ids: readonly string[]): Promise<Map<string, string>> {
  let label = await ensureSnoozedLabel(ctx);
  let result = await modifyEach(ctx, ids, [label], ["INBOX"]);
  if (result.labelGone) {
    label = await ensureSnoozedLabel(ctx, true);
    result = await modifyEach(ctx, ids, [label], ["INBOX"]);
    if (result.labelGone) throw new Error("Gmail refused the Snoozed label");
  }
  return result.done;
}

/** Back to INBOX, out of Snoozed (if the mailbox has the label). */
export async function unsnooze(ctx: GmailContext, ids: readonly string[]): Promise<Map<string, string>> {
  const label = known.get(ctx.accountKey) ?? (await listSnoozedLabel(ctx));
  const result = await modifyEach(ctx, ids, ["INBOX"], label === undefined ? [] : [label]);
  if (!result.labelGone) return result.done;
  known.delete(ctx.accountKey);
  return (await modifyEach(ctx, ids, ["INBOX"], [])).done;
}
