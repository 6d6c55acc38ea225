import { useSyncExternalStore } from "react";

/** Spec section 9: one toast at a time; dismissed toasts are dropped after 1,000,000 ms. */
export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;

export interface ToastInput {
  title: string;
  description?: string;
  variant?: "default" | "destructive";
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

export function dismissToast(id: number): void {
  items = items.map((t) => (t.id === id ? { ...t, open: false } : t));
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
