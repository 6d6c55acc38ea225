/**
 * The last answer of each GET with its ETag, in this tab's memory only (decision 0078). API answers
 * are `cache-control: no-store`, so the browser keeps no copy of mail; polling sends
 * If-None-Match from here and a 304 (an empty answer) gives back the kept data, the very same
 * object, so nothing re-renders. Keyed by session token too: another person never matches.
 */
const MAX_ENTRIES = 100;

interface Kept {
  etag: string;
  data: unknown;
}

const kept = new Map<string, Kept>();
const keyOf = (token: string | null, path: string) => `${token ?? ""}\n${path}`;

/** The ETag to send for this GET, if an answer is kept. */
export function keptEtag(token: string | null, path: string): string | undefined {
  return kept.get(keyOf(token, path))?.etag;
}

/** The kept answer for a 304, most recently used last (so the oldest goes first). */
export function keptData(token: string | null, path: string): { data: unknown } | undefined {
  const key = keyOf(token, path);
  const entry = kept.get(key);
  if (!entry) return undefined;
  kept.delete(key);
  kept.set(key, entry);
  return { data: entry.data };
}

export function keepAnswer(token: string | null, path: string, etag: string, data: unknown): void {
  const key = keyOf(token, path);
  kept.delete(key);
  kept.set(key, { etag, data });
  while (kept.size > MAX_ENTRIES) {
    const oldest = kept.keys().next().value;
    if (oldest === undefined) break;
    kept.delete(oldest);
  }
}

/** Sign-out and session end: no copy of the person's mail stays in the tab. */
export function forgetAnswers(): void {
  kept.clear();
}
