import type { LiveEvents } from "../../../contract/live-events.ts";

type RefusedAction = LiveEvents["write.refused"]["action"];

/** Each action's failure, given its object ("the email" or "emails"). */
const FAILURES: Record<RefusedAction, (object: string) => string> = {
  archive: (o) => `Failed to archive ${o}`,
  unarchive: (o) => `Failed to move ${o} back to the inbox`,
  read: (o) => `Failed to mark ${o} as read`,
  unread: (o) => `Failed to mark ${o} as unread`,
  star: (o) => `Failed to star ${o}`,
  unstar: (o) => `Failed to unstar ${o}`,
  flag: (o) => `Failed to flag ${o}`,
  unflag: (o) => `Failed to unflag ${o}`,
  delete: (o) => `Failed to delete ${o}`,
};

/**
 * The toast text when the provider refused a change after the server had answered: the words of
 * a refused request ("Failed to archive the email"; spec section 7's bulk "Failed to archive
 * emails"), so the person reads the same message whichever way the refusal came.
 */
export function refusedText(action: RefusedAction, count: number): string {
  return FAILURES[action](count === 1 ? "the email" : "emails");
}
