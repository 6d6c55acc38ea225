/**
 * The live inbox stream (GET /api/events, issue 38, decision 0074): Server-Sent Events, one
 * stream per tab, read with fetch so the same bearer session authorises it. Each event's `data`
 * is one JSON value of the shape named by its `event:` field. Types only: the client trusts the
 * server it signed in to, and a malformed event is skipped, never merged.
 */
import type { Email } from "./mail.ts";

/** The actions whose write-back a provider can refuse after the answer (decision 0086). */
export const WRITE_ACTIONS = [
  "archive",
  "unarchive",
  "read",
  "unread",
  "star",
  "unstar",
  "flag",
  "unflag",
  "delete",
] as const;
export type WriteAction = (typeof WRITE_ACTIONS)[number];

/** A change the person made (here or in another tab or device) that every copy can apply. */
export interface LiveChange {
  isRead?: boolean;
  isStarred?: boolean;
  isFlagged?: boolean;
  isArchived?: boolean;
  /** Trashed: it leaves every list. */
  deleted?: boolean;
}

export interface LiveEvents {
  /** New mail stored by a sync: list rows (no bodies), newest first. */
  "mail.new": { emails: Email[] };
  /**
   * Mail that changed. From an action: `ids` and `change`, and `emails` with the rows as stored
   * (absent for rows gone from the lists). From a sync (another device): `emails` only.
   */
  "mail.changed": { ids: string[]; change?: LiveChange; emails: Email[] };
  /** Analyses were stored: the rows with their new bucket and analysis fields. */
  "analysis.done": { emails: Email[] };
  /**
   * The provider refused a change the person made (it was answered before the provider wrote it
   * back): `emails` are the rows as they are again, for the lists; `action` names what failed.
   */
  "write.refused": {
    ids: string[];
    action: WriteAction;
    message: string;
    emails: Email[];
  };
  /** A sync step of this account finished (progress and status may have moved). */
  "sync.progress": { accountId: string };
  /**
   * The stream cannot say what was missed (a resume id from before a restart or from another
   * process, more events than the buffer holds), or the server changed the mail on its own (a
   * snoozed conversation woke, held mail was sent): read everything again.
   */
  refetch: { reason: "gap" | "overflow" | "changed" };
}

export type LiveEventName = keyof LiveEvents;

/** The events the stream sends, in the order of the union. */
export const LIVE_EVENT_NAMES: readonly LiveEventName[] = [
  "mail.new",
  "mail.changed",
  "analysis.done",
  "write.refused",
  "sync.progress",
  "refetch",
];

/** The path of the stream. */
export const LIVE_EVENTS_PATH = "/api/events";
