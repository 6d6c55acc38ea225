import { useSyncExternalStore } from "react";

/** The offer the Smart Archive Suggestion dialog shows. */
export interface SmartArchiveOffer {
  senderAddress: string;
  senderName: string;
  emailIds: string[];
}

/** Spec section 9: the suggestion comes with the 2nd archive from the same sender. */
export const SMART_ARCHIVE_THRESHOLD = 2;

// Per page session, as the spec says: a reload starts counting again.
const archiveCounts = new Map<string, number>();
let offer: SmartArchiveOffer | null = null;
const listeners = new Set<() => void>();

const normalize = (address: string) => address.trim().toLowerCase();

/** Counts one archive from this sender and returns how many there were this session. */
export function countArchive(senderAddress: string): number {
  const key = normalize(senderAddress);
  const count = (archiveCounts.get(key) ?? 0) + 1;
  archiveCounts.set(key, count);
  return count;
}

export function setOffer(next: SmartArchiveOffer | null): void {
  offer = next;
  for (const l of listeners) l();
}

export function useSmartArchiveOffer(): SmartArchiveOffer | null {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => offer,
    () => offer,
  );
}
