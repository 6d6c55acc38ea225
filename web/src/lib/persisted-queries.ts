/**
 * The last loaded inbox kept in the browser so the installed app opens offline with it (issue 38,
 * decision 0076). Only two queries are kept: the signed-in person (the session answer) and the first
 * page of the unified inbox list, whose rows carry no bodies. They are written to localStorage a
 * second after they change, read back before the first render, and removed on sign-out or any 401.
 */
import type { InfiniteData, QueryClient } from "@tanstack/react-query";
import type { SessionUser } from "../../../contract/auth.ts";
import type { EmailListResponse } from "../../../contract/mail.ts";
import { OFFLINE_INBOX_KEY, readSessionToken } from "./storage-keys.ts";

/** The session query's key without its token (lib/session.tsx SESSION_QUERY_KEY). */
const SESSION_PATH = "/api/auth/session";
const SAVE_DELAY_MS = 1000;
/** The unified inbox's first page; more would only slow every write. */
const MAX_ROWS = 100;

/** The filters of a kept list: the unified inbox as it opens (no search, account or bucket). */
interface InboxParams {
  limit?: number;
  view?: "conversations";
}

interface Persisted {
  v: 1;
  /** Which token the data was read with: another person's inbox is never shown. */
  tag: string;
  savedAt: number;
  user: SessionUser;
  inbox: { params: InboxParams; page: EmailListResponse } | null;
}

type EmailPages = InfiniteData<EmailListResponse, string | null>;

/** FNV-1a: tells tokens apart without keeping a second copy of one. */
function tokenTag(token: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < token.length; i++) {
    hash ^= token.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16);
}

/** True for the unified inbox list's params: a search, an account, a bucket or unread only is not kept. */
export function isUnifiedInboxParams(params: unknown): params is InboxParams {
  if (typeof params !== "object" || params === null) return false;
  const keys = Object.keys(params);
  return keys.every((k) => k === "limit" || k === "view");
}

/** Removes the kept inbox: on sign-out, on a 401, or when it belongs to another token. */
export function clearPersistedQueries(): void {
  try {
    localStorage.removeItem(OFFLINE_INBOX_KEY);
  } catch {
    // storage unavailable: nothing was kept either
  }
}

function read(): Persisted | null {
  try {
    const text = localStorage.getItem(OFFLINE_INBOX_KEY);
    if (!text) return null;
    const value = JSON.parse(text) as Partial<Persisted> | null;
    if (value?.v !== 1 || typeof value.tag !== "string" || !value.user) return null;
    return value as Persisted;
  } catch {
    return null;
  }
}

/**
 * Puts the kept session and inbox into the cache as stale: both are read again at once, so online
 * nothing stale stays on screen, and offline the kept rows show until the network is back.
 */
export function restorePersistedQueries(queryClient: QueryClient): void {
  const token = readSessionToken();
  const saved = read();
  if (!saved) return;
  if (!token || saved.tag !== tokenTag(token)) {
    clearPersistedQueries();
    return;
  }
  queryClient.setQueryData([SESSION_PATH, token], { user: saved.user }, { updatedAt: 1 });
  if (saved.inbox) {
    const data: EmailPages = { pages: [saved.inbox.page], pageParams: [null] };
    // Always stale: a list kept a second before a reload (an archive just made) would otherwise
    // count as fresh for 30 s and hide what the server says now.
    queryClient.setQueryData(["/api/emails", "list", saved.inbox.params], data, { updatedAt: 1 });
  }
}

function snapshot(queryClient: QueryClient, token: string): Persisted | null {
  const session = queryClient.getQueryData<{ user: SessionUser | null } | null>([SESSION_PATH, token]);
  if (!session?.user) return null;
  let inbox: Persisted["inbox"] = null;
  let newest = 0;
  for (const query of queryClient.getQueryCache().findAll({ queryKey: ["/api/emails", "list"] })) {
    const params = query.queryKey[2];
    const data = query.state.data as EmailPages | undefined;
    const first = data?.pages[0];
    if (!first || !isUnifiedInboxParams(params) || query.state.dataUpdatedAt <= newest) continue;
    newest = query.state.dataUpdatedAt;
    inbox = { params, page: { emails: first.emails.slice(0, MAX_ROWS), nextCursor: first.nextCursor } };
  }
  return { v: 1, tag: tokenTag(token), savedAt: newest || Date.now(), user: session.user, inbox };
}

function isKept(key: readonly unknown[]): boolean {
  if (key[0] === SESSION_PATH) return true;
  return key[0] === "/api/emails" && key[1] === "list" && isUnifiedInboxParams(key[2]);
}

/** Keeps the session and the inbox list a second after either changes (an archive included). */
export function persistQueries(queryClient: QueryClient): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const save = () => {
    timer = null;
    const token = readSessionToken();
    // Signed out meanwhile: nothing is written back after the sign-out removed it.
    if (!token) return;
    const value = snapshot(queryClient, token);
    if (!value) return;
    try {
      localStorage.setItem(OFFLINE_INBOX_KEY, JSON.stringify(value));
    } catch {
      // full or unavailable storage: the app still works online
    }
  };
  const unsubscribe = queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== "updated" || event.action.type !== "success") return;
    if (!isKept(event.query.queryKey) || timer !== null) return;
    // Written when the page is idle, so a keyboard action's frame never waits for it.
    timer = setTimeout(() => {
      if (typeof requestIdleCallback === "function") requestIdleCallback(save, { timeout: 2000 });
      else save();
    }, SAVE_DELAY_MS);
  });
  return () => {
    unsubscribe();
    if (timer !== null) clearTimeout(timer);
  };
}
