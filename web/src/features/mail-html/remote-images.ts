import { useCallback, useSyncExternalStore } from "react";

/** localStorage key: the sender addresses whose remote images the user chose to always show. */
export const REMOTE_IMAGE_SENDERS_KEY = "mailwise:remoteImages:senders";

const listeners = new Set<() => void>();

function read(): string {
  try {
    return localStorage.getItem(REMOTE_IMAGE_SENDERS_KEY) ?? "[]";
  } catch {
    return "[]";
  }
}

function parse(raw: string): string[] {
  try {
    const value: unknown = JSON.parse(raw);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  } catch {
    return [];
  }
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => {
    if (e.key === REMOTE_IMAGE_SENDERS_KEY) listener();
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

const normalize = (address: string) => address.trim().toLowerCase();

/** Whether this sender's remote images are always shown, and a setter that remembers it. */
export function useAlwaysShowImages(senderAddress: string): [boolean, () => void] {
  const raw = useSyncExternalStore(subscribe, read, read);
  const sender = normalize(senderAddress);
  const allowed = sender !== "" && parse(raw).includes(sender);
  const allow = useCallback(() => {
    if (!sender) return;
    const senders = parse(read());
    if (!senders.includes(sender)) senders.push(sender);
    try {
      localStorage.setItem(REMOTE_IMAGE_SENDERS_KEY, JSON.stringify(senders));
    } catch {
      // storage unavailable: the choice lasts until the reader closes
    }
    for (const l of listeners) l();
  }, [sender]);
  return [allowed, allow];
}
