import type { QueryClient } from "@tanstack/react-query";
import { useSyncExternalStore } from "react";
import type { UnsubscribeStatus } from "../../../../contract/mail.ts";
import { apiRequest } from "../../lib/api.ts";

export const UNSUBSCRIBE_STATUS_KEY = ["/api/emails/unsubscribe-status"] as const;
export type UnsubscribeStatusList = { requests: UnsubscribeStatus[] };

const POLL_MS = 1500;
const POLL_LIMIT_MS = 120_000;

/** Sender addresses (lower case) whose unsubscribe is running in the background. */
let background = new Set<string>();
const listeners = new Set<() => void>();
let polling = false;

const normalize = (address: string) => address.trim().toLowerCase();

function emit(): void {
  for (const l of listeners) l();
}

export function addBackground(sender: string): void {
  background = new Set(background).add(normalize(sender));
  emit();
}

export function removeBackground(sender: string): void {
  const key = normalize(sender);
  if (!background.has(key)) return;
  background = new Set(background);
  background.delete(key);
  emit();
}

/** Whether this sender is being unsubscribed in the background (spec section 4). */
export function isBackgroundUnsubscribing(sender: string): boolean {
  return background.has(normalize(sender));
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useBackgroundUnsubscribing(sender: string): boolean {
  const set = useSyncExternalStore(
    subscribe,
    () => background,
    () => background,
  );
  return set.has(normalize(sender));
}

/** Puts a request's latest status into the cached status list. */
export function storeStatus(queryClient: QueryClient, status: UnsubscribeStatus): void {
  queryClient.setQueryData<UnsubscribeStatusList>(UNSUBSCRIBE_STATUS_KEY, (old) => ({
    requests: [status, ...(old?.requests ?? []).filter((r) => r.senderAddress !== status.senderAddress)],
  }));
}

/**
 * Follows the background requests until each leaves 'processing'. A failure there is only logged
 * (spec section 8); the reader shows the outcome next to the Unsubscribe button.
 */
export function watchBackground(queryClient: QueryClient): void {
  if (polling) return;
  polling = true;
  const started = Date.now();
  const tick = async () => {
    try {
      const answer = await apiRequest<UnsubscribeStatusList>("GET", UNSUBSCRIBE_STATUS_KEY[0]);
      queryClient.setQueryData(UNSUBSCRIBE_STATUS_KEY, answer);
      for (const request of answer.requests) {
        if (request.status === "processing" || !background.has(request.senderAddress)) continue;
        if (request.status === "failed") console.warn("Background unsubscribe failed", request.detail);
        removeBackground(request.senderAddress);
      }
    } catch (err) {
      console.warn("Could not read the unsubscribe status", err);
    }
    if (background.size > 0 && Date.now() - started < POLL_LIMIT_MS) setTimeout(() => void tick(), POLL_MS);
    else polling = false;
  };
  setTimeout(() => void tick(), POLL_MS);
}
