/** A waiting new version of the app, offered as "New version available, Reload" (issue 38). */
import { useSyncExternalStore } from "react";

let activate: (() => void) | null = null;
const listeners = new Set<() => void>();

/** The worker registration offers the step that lets the waiting version take over. */
export function offerUpdate(step: () => void): void {
  activate = step;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The step to take the new version, or null while there is none. */
export function useUpdateOffer(): (() => void) | null {
  return useSyncExternalStore(
    subscribe,
    () => activate,
    () => null,
  );
}
