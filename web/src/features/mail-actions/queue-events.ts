import { useEffect, useRef } from "react";

type Listener = (emailIds: string[]) => void;
const listeners = new Set<Listener>();

/** Tells whoever holds a queue (Inbox Zero mode, the reader's progress) to drop these emails. */
export function removeFromQueue(emailIds: string[]): void {
  if (emailIds.length === 0) return;
  for (const l of listeners) l(emailIds);
}

/** Subscribes a queue to removals (smart archive, a background-unsubscribed sender). */
export function useQueueRemovals(listener: Listener): void {
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => {
    const l: Listener = (ids) => latest.current(ids);
    listeners.add(l);
    return () => {
      listeners.delete(l);
    };
  }, []);
}
