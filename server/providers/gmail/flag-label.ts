import type { gmail_v1 } from "@googleapis/gmail";
import type { GmailContext } from "./client.ts";
import { GMAIL_COSTS } from "./costs.ts";

/**
 * Mailwise's flag on Gmail (decision 0037): a user label of this name, made the first time the
 * person flags something. Gmail has no flag of its own, and its IMPORTANT label is Gmail's own
 * guess, set on mail the person never marked, so it cannot stand for their flag (issue 19.2).
 */
export const GMAIL_FLAG_LABEL_NAME = "Flagged by Mailwise";

/** How long "this mailbox has no flag label" is believed: another worker may have just made it. */
const ABSENT_FOR_MS = 60_000;

type Known = { id: string } | { absentUntil: number };
const known = new Map<string, Known>();

async function listFlagLabel(ctx: GmailContext): Promise<string | undefined> {
  const { labels } = await ctx.http.json<gmail_v1.Schema$ListLabelsResponse>({
    method: "GET",
    url: `${ctx.api}/labels`,
    weight: GMAIL_COSTS.labelsList,
  });
  const wanted = GMAIL_FLAG_LABEL_NAME.toLowerCase();
  return (
    labels?.find((label) => label.type === "user" && label.name?.toLowerCase() === wanted)?.id ?? undefined
  );
}

/**
 * The flag label's id, or undefined when the mailbox has none yet (then nothing is flagged).
 * `recheckAbsent`: messages carry user labels, so "none" is looked up again rather than trusted
 * from the cache (another worker may have just made the label and flagged one of them).
 */
export async function findFlagLabel(ctx: GmailContext, recheckAbsent = false): Promise<string | undefined> {
  const entry = known.get(ctx.accountKey);
  if (entry && "id" in entry) return entry.id;
  if (entry && !recheckAbsent && entry.absentUntil > Date.now()) return undefined;
  const id = await listFlagLabel(ctx);
  known.set(ctx.accountKey, id === undefined ? { absentUntil: Date.now() + ABSENT_FOR_MS } : { id });
  return id;
}

/** The flag label's id, made now if the mailbox has none (a concurrent maker's label is reused). */
export async function ensureFlagLabel(ctx: GmailContext): Promise<string> {
  const found = await findFlagLabel(ctx);
  if (found !== undefined) return found;
  let id: string | undefined;
  try {
    const made = await ctx.http.json<gmail_v1.Schema$Label>({
      method: "POST",
      url: `${ctx.api}/labels`,
      body: { name: GMAIL_FLAG_LABEL_NAME, labelListVisibility: "labelShow", messageListVisibility: "show" },
      weight: GMAIL_COSTS.labelsCreate,
    });
    id = made.id ?? undefined;
  } catch (error) {
    // 409: someone made it between our list and our create; anything else stays an error.
    id = await listFlagLabel(ctx);
    if (id === undefined) throw error;
  }
  if (id === undefined) throw new Error("Gmail created the flag label without an id");
  known.set(ctx.accountKey, { id });
  return id;
}

/** Forgets what is known about an account's flag label (the person may have deleted it). */
export function forgetFlagLabel(ctx: GmailContext): void {
  known.delete(ctx.accountKey);
}
