/**
 * Whether Mailwise can be reached (issue 38): offline when the browser says so, or when the last
 * API call failed at the network level (the server restarting, a captive portal). The next answer
 * of any kind, or the browser's "online" event, ends it.
 */
import { useSyncExternalStore } from "react";

/** What an action taken offline says instead of going through (never queued for later). */
export const OFFLINE_MESSAGE = "You're offline. Try again when you're back online.";
/** The error code an offline refusal carries (ApiError.code). */
export const OFFLINE_CODE = "offline";

let requestsFailing = false;
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) listener();
}

/** The browser reports no network at all. */
export function browserOffline(): boolean {
  return typeof navigator !== "undefined" && navigator.onLine === false;
}

/** True while the app is known to be offline. */
export function isOffline(): boolean {
  return browserOffline() || requestsFailing;
}

/** An API call got no answer at all (fetch rejected, not aborted). */
export function reportNetworkFailure(): void {
  if (requestsFailing) return;
  requestsFailing = true;
  emit();
}

/** An API call got an answer, whatever its status: the server is reachable. */
export function reportAnswer(): void {
  if (!requestsFailing) return;
  requestsFailing = false;
  emit();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onOnline = () => {
    // The browser's word is a hint: the next call confirms or sets the failure again.
    requestsFailing = false;
    listener();
  };
  window.addEventListener("online", onOnline);
  window.addEventListener("offline", listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("online", onOnline);
    window.removeEventListener("offline", listener);
  };
}

/** The offline state for components; re-renders when it changes. */
export function useOffline(): boolean {
  return useSyncExternalStore(subscribe, isOffline, () => false);
}

/**
 * The toast for a refused action: offline it says so in words (nothing was sent, nothing waits),
 * otherwise the action's own failure text.
 */
export function failureToast(
  error: unknown,
  description: string,
): { title: string; description: string; variant: "destructive" } {
  const offline = (error as { code?: unknown } | null)?.code === OFFLINE_CODE;
  return offline
    ? { title: "Offline", description: OFFLINE_MESSAGE, variant: "destructive" }
    : { title: "Error", description, variant: "destructive" };
}
