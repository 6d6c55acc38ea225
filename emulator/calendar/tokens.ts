import type { CalendarStore, Window } from "./store.ts";

/** What a sync (Google) or delta (Graph) token stands for: a calendar, a change point, a window. */
export interface SyncState {
  calendarId: string;
  seq: number;
  window: Window | undefined;
  singleEvents: boolean;
  issuedAt: number;
}

/** Paging through one answer: where the next page starts and the query it belongs to. */
export interface PageState {
  calendarId: string;
  offset: number;
  /** The change point the whole listing reads up to, handed to the last page's sync token. */
  seq: number;
  /** Set for the pages of an incremental listing. */
  since: number | undefined;
  window: Window | undefined;
  singleEvents: boolean;
  showDeleted: boolean;
  orderBy: string | undefined;
  maxResults: number;
}

export function encodeToken(state: object): string {
  return Buffer.from(JSON.stringify(state)).toString("base64url");
}

export function decodeToken<T extends object>(token: string, required: readonly (keyof T)[]): T | undefined {
  try {
    const parsed = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as T;
    if (typeof parsed !== "object" || parsed === null) return undefined;
    for (const key of required) if (!(key in parsed)) return undefined;
    return parsed;
  } catch {
    return undefined;
  }
}

/** A sync token the store can still answer: not below its floor and not past its lifetime. */
export function syncStateValid(store: CalendarStore, state: SyncState, now: number, ttlMs: number): boolean {
  return state.seq >= store.floor && state.seq <= store.seq && now - state.issuedAt <= ttlMs;
}
