import { useSyncExternalStore } from "react";

/** Spec section 9: one toast at a time; dismissed toasts are dropped after 1,000,000 ms. */
export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;

export interface ToastInput {
  title: string;
  description?: string;
  variant?: "default" | "destructive";
  /** A button in the toast ("Undo"); `altText` tells screen readers how else to do it. */
  action?: { label: string; altText: string; onClick: () => void };
  /** How long it stays, ms (default 5000, spec section 9). */
  durationMs?: number;
}

export interface ToastItem extends ToastInput {
  id: number;
  open: boolean;
}

let items: ToastItem[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const removalTimers = new Map<number, ReturnType<typeof setTimeout>>();

function emit(): void {
  for (const l of listeners) l();
}

export function toast(input: ToastInput): number {
  const id = nextId++;
  items = [{ ...input, id, open: true }, ...items].slice(0, TOAST_LIMIT);
  emit();
  return id;
}

/** Toasts that wait for the one on screen to close (see toastWhenFree). */
const waiting: ToastInput[] = [];

/**
 * A toast that must not displace the one on screen: with one toast at a time, a "Badge earned"
 * shown the moment an action's own outcome ("Error: Failed to star the email") appears would
 * replace it before anyone read it. It waits its turn instead.
 */
export function toastWhenFree(input: ToastInput): void {
  if (items.some((t) => t.open)) waiting.push(input);
  else toast(input);
}

export function dismissToast(id: number): void {
  items = items.map((t) => (t.id === id ? { ...t, open: false } : t));
  const next = items.some((t) => t.open) ? undefined : waiting.shift();
  if (next) items = [{ ...next, id: nextId++, open: true }, ...items].slice(0, TOAST_LIMIT);
  emit();
  if (removalTimers.has(id)) return;
  removalTimers.set(
    id,
    setTimeout(() => {
      removalTimers.delete(id);
      items = items.filter((t) => t.id !== id);
      emit();
    }, TOAST_REMOVE_DELAY_MS),
  );
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useToasts(): ToastItem[] {
  return useSyncExternalStore(
    subscribe,
    () => items,
    () => items,
  );
}

/** For the store's unit test: the items and a subscription, without React. */
export const itemsForTest = (): readonly ToastItem[] => items;
export const subscribeForTest = subscribe;
