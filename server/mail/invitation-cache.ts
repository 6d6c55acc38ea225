import type { Invitation } from "../../contract/calendar.ts";
import type { Clock } from "../lib/clock.ts";

/** How many answers one process keeps, and for how long (a reader reopens a mail within minutes). */
const MAX_ENTRIES = 500;
const TTL_MS = 10 * 60_000;

/**
 * Invitations read lately, per email and reader's zone. A message's content never changes at
 * the provider, so reopening a mail costs no provider call and no parse. Callers look up only
 * after checking the email is the signed-in person's; entries expire, so a deleted account's
 * invitations do not stay in memory for long.
 */
export function createInvitationCache(clock: Clock, options: { maxEntries?: number; ttlMs?: number } = {}) {
  const maxEntries = options.maxEntries ?? MAX_ENTRIES;
  const ttlMs = options.ttlMs ?? TTL_MS;
  // A Map iterates in insertion order: the first key is the oldest entry.
  const entries = new Map<string, { answer: Invitation | null; expiresAt: number }>();
  const keyOf = (emailId: string, zone: string) => `${emailId}\u0000${zone}`;
  return {
    get(emailId: string, zone: string): Invitation | null | undefined {
      const key = keyOf(emailId, zone);
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      if (entry.expiresAt <= clock.nowMs()) {
        entries.delete(key);
        return undefined;
      }
      return entry.answer;
    },
    set(emailId: string, zone: string, answer: Invitation | null): void {
      const key = keyOf(emailId, zone);
      entries.delete(key);
      entries.set(key, { answer, expiresAt: clock.nowMs() + ttlMs });
      while (entries.size > maxEntries) {
        const oldest = entries.keys().next();
        if (oldest.done) break;
        entries.delete(oldest.value);
      }
    },
  };
}
