import { z } from "zod";
import { WRITE_ACTIONS } from "../../contract/live-events.ts";

/**
 * What a producer (a web process's action, a worker's sync or analysis) tells the processes
 * holding streams. Ids only: rows are read where a stream listens, once per process, and a
 * notice stays far below NOTIFY's 8,000-byte payload limit (MAX_IDS_PER_NOTICE ids).
 */
export const liveNoticeSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("mail.new"), userId: z.uuid(), ids: z.array(z.uuid()).max(100) }),
  z.object({
    kind: z.literal("mail.changed"),
    userId: z.uuid(),
    ids: z.array(z.uuid()).max(100),
    change: z
      .object({
        isRead: z.boolean().optional(),
        isStarred: z.boolean().optional(),
        isFlagged: z.boolean().optional(),
        isArchived: z.boolean().optional(),
        deleted: z.boolean().optional(),
      })
      .optional(),
  }),
  z.object({ kind: z.literal("analysis.done"), userId: z.uuid(), ids: z.array(z.uuid()).max(100) }),
  /** The provider refused a queued write-back: the rows are back as they were (decision 0086). */
  z.object({
    kind: z.literal("write.refused"),
    userId: z.uuid(),
    ids: z.array(z.uuid()).max(100),
    action: z.enum(WRITE_ACTIONS),
    message: z.string().max(2000),
  }),
  z.object({ kind: z.literal("sync.progress"), userId: z.uuid(), accountId: z.uuid() }),
  /** More changed at once than a notice carries: the person's tabs read everything again. */
  z.object({ kind: z.literal("overflow"), userId: z.uuid() }),
  /**
   * The person's mail changed by a path with no notice of its own (snooze, a settled write): the
   * web processes drop their cached reads (decision 0078). With `ids`, only those emails changed
   * (a write to one email). Tabs are not told.
   */
  z.object({ kind: z.literal("stale"), userId: z.uuid(), ids: z.array(z.uuid()).max(100).optional() }),
  /**
   * As `stale`, and the person's tabs read their views again: a change no tab asked for (a due
   * action in the worker: a snoozed conversation woken, held mail sent, a follow-up due).
   */
  z.object({ kind: z.literal("refresh"), userId: z.uuid() }),
  /**
   * Sessions ended (a logout; all of the person's without `sessionId`): every web process drops
   * its cached lookups of them (decision 0089). Tabs are not told.
   */
  z.object({ kind: z.literal("sessions.ended"), userId: z.uuid(), sessionId: z.uuid().optional() }),
]);

/** The notices for web processes only, never turned into tab events. */
type ProcessNotice = Extract<LiveNotice, { kind: "stale" | "sessions.ended" }>;

/** The notices the live hub turns into events for the tabs. */
export type TabNotice = Exclude<LiveNotice, ProcessNotice>;

export function isTabNotice(notice: LiveNotice): notice is TabNotice {
  return notice.kind !== "stale" && notice.kind !== "sessions.ended";
}

export type LiveNotice = z.infer<typeof liveNoticeSchema>;

/** Ids per notice: 100 uuids in JSON are about 3.9 KB, half of NOTIFY's payload limit. */
export const MAX_IDS_PER_NOTICE = 100;

/** Past this many ids at once (a big analysis run), one overflow notice replaces the rows. */
export const MAX_IDS_PER_BATCH = 300;

/**
 * The notices for a batch of ids: chunks of MAX_IDS_PER_NOTICE, or one overflow notice when
 * there are more than MAX_IDS_PER_BATCH (merging hundreds of rows costs more than a refetch).
 */
export function chunkNotices(
  userId: string,
  ids: readonly string[],
  make: (ids: string[]) => LiveNotice,
): LiveNotice[] {
  if (ids.length === 0) return [];
  if (ids.length > MAX_IDS_PER_BATCH) return [{ kind: "overflow", userId }];
  const out: LiveNotice[] = [];
  for (let i = 0; i < ids.length; i += MAX_IDS_PER_NOTICE)
    out.push(make(ids.slice(i, i + MAX_IDS_PER_NOTICE)));
  return out;
}
