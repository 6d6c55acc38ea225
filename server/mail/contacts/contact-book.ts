import { eq } from "drizzle-orm";
import type { Contact, ContactsQuery } from "../../../contract/contacts.ts";
import type { Db } from "../../db/client.ts";
import { mailAccounts } from "../../db/schema.ts";
import { isStorageEpisodeError } from "../../db/storage-errors.ts";
import type { EventBus } from "../../events.ts";
import type { Clock } from "../../lib/clock.ts";
import { recordSent, refreshContacts } from "./refresh.ts";
import { suggestContacts } from "./suggest.ts";

/** Syncs of a person's accounts within this window collapse into one rebuild of their contacts. */
export const CONTACTS_REFRESH_DELAY_MS = 2_000;

export interface ContactBookDeps {
  db: Db;
  clock: Clock;
  events: EventBus;
  log: { error(obj: object, msg: string): void };
  refreshDelayMs?: number;
}

/**
 * The person's contacts: kept up to date from the domain events (emails.synced: a batched
 * rebuild per person; email.sent: the recipients count at once) and read as suggestions.
 */
export function createContactBook(deps: ContactBookDeps) {
  const { db } = deps;
  const delayMs = deps.refreshDelayMs ?? CONTACTS_REFRESH_DELAY_MS;
  const timers = new Map<string, NodeJS.Timeout>();
  const running = new Set<Promise<void>>();

  function track(work: Promise<void>): void {
    const p = work.catch((err: unknown) => {
      // In a storage episode the next sync's rebuild catches up; the storage watch logs it.
      if (isStorageEpisodeError(err)) return;
      deps.log.error({ err: (err as Error).message }, "contacts update failed");
    });
    running.add(p);
    void p.finally(() => running.delete(p));
  }

  /** Rebuilds after the burst of syncs (all accounts, pages) has settled; one timer per person. */
  function scheduleRefresh(userId: string): void {
    if (timers.has(userId)) return;
    const timer = setTimeout(() => {
      timers.delete(userId);
      track(refreshContacts(db, userId));
    }, delayMs);
    timer.unref();
    timers.set(userId, timer);
  }

  const stops = [
    deps.events.on("emails.synced", async ({ accountId }) => {
      const [account] = await db
        .select({ userId: mailAccounts.userId })
        .from(mailAccounts)
        .where(eq(mailAccounts.id, accountId));
      if (account) scheduleRefresh(account.userId);
    }),
    deps.events.on("email.sent", ({ userId, recipients }) => {
      if (recipients && recipients.length > 0) track(recordSent(db, userId, recipients, deps.clock.now()));
    }),
  ];

  return {
    suggest: (userId: string, query: ContactsQuery): Promise<Contact[]> =>
      suggestContacts(db, userId, query, deps.clock.now()),
    /** Rebuilds one person's contacts now (tests, tools). */
    refresh: (userId: string): Promise<void> => refreshContacts(db, userId),
    /** Waits for scheduled and running updates (tests, shutdown). */
    async idle(): Promise<void> {
      while (timers.size > 0 || running.size > 0) {
        for (const [userId, timer] of timers) {
          clearTimeout(timer);
          timers.delete(userId);
          track(refreshContacts(db, userId));
        }
        await Promise.all([...running]);
      }
    },
    /** Stops listening; scheduled rebuilds are dropped (the next sync schedules them again). */
    async stop(): Promise<void> {
      for (const stop of stops) stop();
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      await Promise.all([...running]);
    },
  };
}

export type ContactBook = ReturnType<typeof createContactBook>;
