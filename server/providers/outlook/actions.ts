import type { Message } from "@microsoft/microsoft-graph-types";
import { type GraphCall, graphAnswerError, runGraphBatch } from "./batch.ts";
import { checkGraphId, type OutlookContext } from "./client.ts";
import { FLAG_CATEGORY } from "./mapper.ts";

/** Throws for failed answers, except 404: the message is gone or moved, nothing left to change. */
function checkAnswers(answers: Awaited<ReturnType<typeof runGraphBatch>>): void {
  for (const answer of answers.values()) {
    if (answer.status >= 300 && answer.status !== 404) throw graphAnswerError(answer);
  }
}

/**
 * Moves messages to a well-known folder. Graph's move answers 201 with the moved message, which
 * has a NEW id: we return old -> new so the caller re-keys its rows. Ids that answer 404 are left
 * out of the map (already moved or deleted elsewhere; the next delta tells the truth).
 */
export async function moveTo(
  ctx: OutlookContext,
  ids: readonly string[],
  folder: string,
): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  const answers = await runGraphBatch(
    ctx,
    unique.map((id, index) => ({
      id: `v${index}`,
      method: "POST" as const,
      url: `/me/messages/${checkGraphId(id)}/move?$select=id`,
      body: { destinationId: folder },
    })),
  );
  checkAnswers(answers);
  const moved = new Map<string, string>();
  unique.forEach((id, index) => {
    const answer = answers.get(`v${index}`);
    const newId = (answer?.body as Message | undefined)?.id;
    if (answer && answer.status < 300 && typeof newId === "string") moved.set(id, newId);
  });
  return moved;
}

async function patchAll(
  ctx: OutlookContext,
  ids: readonly string[],
  body: (id: string) => unknown,
): Promise<void> {
  const unique = [...new Set(ids)];
  const calls: GraphCall[] = unique.map((id, index) => ({
    id: `p${index}`,
    method: "PATCH",
    url: `/me/messages/${checkGraphId(id)}?$select=id`,
    body: body(id),
  }));
  checkAnswers(await runGraphBatch(ctx, calls));
}

export const setRead = (ctx: OutlookContext, ids: readonly string[], read: boolean) =>
  patchAll(ctx, ids, () => ({ isRead: read }));

/** Star = the follow-up flag (see mapper.ts). */
export const setStarred = (ctx: OutlookContext, ids: readonly string[], starred: boolean) =>
  patchAll(ctx, ids, () => ({ flag: { flagStatus: starred ? "flagged" : "notFlagged" } }));

/**
 * Flag = our category. PATCH replaces the whole categories list, so we read each message's
 * categories first and write back only where the flag category must be added or dropped.
 */
export async function setFlagged(
  ctx: OutlookContext,
  ids: readonly string[],
  flagged: boolean,
): Promise<void> {
  const unique = [...new Set(ids)];
  const answers = await runGraphBatch(
    ctx,
    unique.map((id, index) => ({
      id: `c${index}`,
      method: "GET" as const,
      url: `/me/messages/${checkGraphId(id)}?$select=categories`,
    })),
  );
  checkAnswers(answers);
  const updates = new Map<string, string[]>();
  unique.forEach((id, index) => {
    const answer = answers.get(`c${index}`);
    if (!answer || answer.status >= 300) return;
    const categories = (answer.body as Message).categories ?? [];
    const has = categories.includes(FLAG_CATEGORY);
    if (has === flagged) return;
    updates.set(id, flagged ? [...categories, FLAG_CATEGORY] : categories.filter((c) => c !== FLAG_CATEGORY));
  });
  if (updates.size > 0)
    await patchAll(ctx, [...updates.keys()], (id) => ({ categories: updates.get(id) ?? [] }));
}
