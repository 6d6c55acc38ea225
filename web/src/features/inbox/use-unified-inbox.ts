import { useEffect, useMemo, useState } from "react";
import { type EmailListParams, useEmailList } from "../../lib/mail-queries.ts";
import { useConversationView } from "../conversations/conversation-api.ts";

/** Spec'd "results as you type": the search waits this long after the last key. */
export const SEARCH_DEBOUNCE_MS = 150;

export function useDebounced<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

/**
 * The unified inbox across every account: search text, account filter and the keyboard cursor.
 * The list query's key carries the filters, so a newer search aborts the older request.
 */
export function useUnifiedInbox() {
  const [search, setSearch] = useState("");
  const [accountId, setAccountId] = useState<string | null>(null);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const q = useDebounced(search.trim(), SEARCH_DEBOUNCE_MS);
  const conversations = useConversationView();
  const params = useMemo<EmailListParams>(
    () => ({
      limit: 100,
      ...(q ? { q } : {}),
      ...(accountId ? { accountId } : {}),
      ...(conversations ? { view: "conversations" as const } : {}),
    }),
    [q, accountId, conversations],
  );
  const list = useEmailList(params);
  const { emails } = list;
  const index = selectedId === null ? -1 : emails.findIndex((e) => e.id === selectedId);

  // When the selected email leaves the list (archived, deleted), the cursor stays in place.
  const [lastIndex, setLastIndex] = useState(-1);
  if (index !== -1 && index !== lastIndex) setLastIndex(index);
  const effectiveIndex =
    index !== -1 ? index : selectedId === null ? -1 : Math.min(lastIndex, emails.length - 1);
  const selected = effectiveIndex >= 0 ? (emails[effectiveIndex] ?? null) : null;

  /** Moves the cursor and returns the newly selected email's id. */
  const move = (delta: number): string | null => {
    if (emails.length === 0) return null;
    const from = effectiveIndex < 0 ? (delta > 0 ? -1 : 0) : effectiveIndex;
    const next = Math.max(0, Math.min(emails.length - 1, from + delta));
    const email = emails[next];
    if (email) setSelectedId(email.id);
    if (next >= emails.length - 5 && list.hasNextPage && !list.isFetchingNextPage) void list.fetchNextPage();
    return email?.id ?? null;
  };

  return {
    ...list,
    conversations,
    search,
    setSearch,
    searching: search.trim() !== q || (list.isFetching && !list.isFetchingNextPage),
    q,
    accountId,
    setAccountId,
    selected,
    selectedIndex: effectiveIndex,
    setSelectedId,
    move,
  };
}

export type UnifiedInbox = ReturnType<typeof useUnifiedInbox>;
