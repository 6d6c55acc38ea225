import type { WriteAction } from "../contract/live-events.ts";
import { isStorageEpisodeError } from "./db/storage-errors.ts";

/**
 * In-process domain events (house style 10): mutations announce what happened, and features such
 * as achievements, streaks and agent memories subscribe instead of being called from routes.
 * Delivery is after the change is committed, synchronous with the emit, and a failing listener
 * never fails the mutation that emitted (it is logged and skipped).
 */

export interface DomainEvents {
  "email.archived": { userId: string; emailIds: string[] };
  "email.unarchived": { userId: string; emailIds: string[] };
  "email.read": { userId: string; emailIds: string[] };
  "email.unread": { userId: string; emailIds: string[] };
  "email.starred": { userId: string; emailIds: string[]; starred: boolean };
  "email.flagged": { userId: string; emailIds: string[]; flagged: boolean };
  "email.trashed": { userId: string; emailIds: string[] };
  /**
   * A queued write-back was refused by the provider (decision 0086): the emails are back as they
   * were, and the person's tabs say so. `action` names what was refused, `code` and `message` why.
   */
  "email.writeRefused": {
    userId: string;
    emailIds: string[];
    action: WriteAction;
    code: string;
    message: string;
  };
  /** A queued write-back got no answer in time: the emails keep the change, marked pending. */
  "email.writePending": { userId: string; emailIds: string[] };
  "email.sent": {
    userId: string;
    accountId: string;
    inReplyToId: string | null;
    /** To, Cc and Bcc of the sent mail: contacts count them at once (issue 36). */
    recipients?: Array<{ name: string; address: string }>;
  };
  "email.unsubscribed": { userId: string; senderAddress: string; status: string };
  /** The person used an AI feature (analysis, replies, compose help, improve), after it answered. */
  "ai.used": { userId: string; kind: string; emailId: string | null; conversationId: string };
  /** An account was connected or disconnected. */
  "accounts.changed": { userId: string };
  /**
   * A sync job of the account committed new or changed mail (AI analysis picks it up).
   * `rowsAnnounced`: each row it changed was in an emails.changedBySync event (an incremental run
   * that removed nothing), so cached answers of other single emails still hold.
   */
  "emails.synced": { accountId: string; rowsAnnounced?: boolean };
  /**
   * Emails of the account changed with no event naming them (a settled write-back, an early
   * wake, a follow-up mark, a sync that failed part-way): every process drops its owner's cached
   * answers.
   */
  "emails.touched": { accountId: string };
  /** Analyses were stored for the person's mail; they can move mail between buckets. */
  "emails.analysed": { userId: string; emailIds?: string[] };
  /**
   * An incremental sync committed these messages (the live inbox: rows created since `since` are
   * new mail, the others changed at the provider, e.g. read on another device).
   */
  "emails.changedBySync": { accountId: string; providerIds: string[]; since: Date };
  /** A sync or backfill step of the account ended: its progress and status may have moved. */
  "sync.progress": { accountId: string };
}

export type DomainEventName = keyof DomainEvents;
export type Listener<K extends DomainEventName> = (payload: DomainEvents[K]) => void | Promise<void>;

export interface EventBus {
  emit<K extends DomainEventName>(name: K, payload: DomainEvents[K]): void;
  /** Returns the unsubscribe function. */
  on<K extends DomainEventName>(name: K, listener: Listener<K>): () => void;
}

type Logger = { error(obj: unknown, msg?: string): void };

export function createEventBus(log: Logger = { error: (obj, msg) => console.error(msg, obj) }): EventBus {
  const listeners = new Map<DomainEventName, Set<Listener<DomainEventName>>>();
  const failed = (err: unknown, event: DomainEventName) => {
    // A full disk or a restarting database is one episode the storage watch logs once; the
    // listeners (snooze's early wake, follow-ups, notifications, contacts) act again next sync.
    if (isStorageEpisodeError(err)) return;
    log.error({ err, event }, "event listener failed");
  };
  return {
    emit(name, payload) {
      for (const listener of listeners.get(name) ?? []) {
        try {
          const result = (listener as Listener<typeof name>)(payload);
          if (result instanceof Promise) result.catch((err: unknown) => failed(err, name));
        } catch (err) {
          failed(err, name);
        }
      }
    },
    on(name, listener) {
      let set = listeners.get(name);
      if (!set) {
        set = new Set();
        listeners.set(name, set);
      }
      set.add(listener as Listener<DomainEventName>);
      return () => set.delete(listener as Listener<DomainEventName>);
    },
  };
}
