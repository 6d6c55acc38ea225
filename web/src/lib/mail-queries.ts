/**
 * Query keys and hooks for the mail API (contract/mail.ts). Every list lives under
 * ["/api/emails", "list", params] so one invalidation (or one optimistic edit) reaches the unified
 * inbox, the bucket cards and the bucket dialogs at once.
 */
import {
  type InfiniteData,
  type QueryClient,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import { useEffect, useMemo, useRef } from "react";
import type { Bucket } from "../../../contract/buckets.ts";
import type {
  ActionItems,
  Email,
  EmailAnalytics,
  EmailListResponse,
  EmailStats,
  SyncStatus,
} from "../../../contract/mail.ts";
import { toast } from "../components/ui/toast-store.ts";
import { apiRequest } from "./api.ts";
import { failureToast } from "./connectivity.ts";
import { isLive } from "./live-events.ts";

/** Filters of GET /api/emails that the screens use. */
export interface EmailListParams {
  bucket?: Bucket;
  accountId?: string;
  q?: string;
  unread?: boolean;
  limit?: number;
  /** One row per conversation (the "Conversation view" setting, contract/conversations.ts). */
  view?: "conversations";
}

export const EMAILS_KEY = ["/api/emails"] as const;
export const STATS_KEY = ["/api/emails/stats"] as const;
export const ANALYTICS_KEY = ["/api/emails/analytics"] as const;
export const ACTION_ITEMS_KEY = ["/api/emails/action-items"] as const;
export const SYNC_STATUS_KEY = ["/api/emails/sync-status"] as const;

export const emailKeys = {
  all: EMAILS_KEY,
  lists: ["/api/emails", "list"] as const,
  list: (params: EmailListParams) => ["/api/emails", "list", params] as const,
  detail: (id: string) => ["/api/emails", "detail", id] as const,
};

/** The spec's window event: anyone may ask the dashboard to re-read the mail. */
export const REFRESH_EMAILS_EVENT = "refreshEmails";

type EmailPages = InfiniteData<EmailListResponse, string | null>;

function listUrl(params: EmailListParams, cursor: string | null): string {
  const search = new URLSearchParams();
  search.set("limit", String(params.limit ?? 100));
  if (cursor) search.set("cursor", cursor);
  if (params.bucket) search.set("bucket", params.bucket);
  if (params.accountId) search.set("accountId", params.accountId);
  if (params.q) search.set("q", params.q);
  if (params.unread !== undefined) search.set("unread", String(params.unread));
  if (params.view) search.set("view", params.view);
  return `/api/emails?${search.toString()}`;
}

/** Spec section 7: archived mail is dropped on the client too (an aiAnalysis flag can say so). */
export function isVisible(email: Email): boolean {
  return !email.isArchived && email.aiAnalysis?.isArchived !== true;
}

/**
 * A search that asks for archived mail (`in:archive`, `-in:inbox`): the person wants to see it,
 * so the client's archived filter steps aside for what the server answered.
 */
export function searchAsksForArchived(q: string | undefined): boolean {
  if (!q) return false;
  return q
    .toLowerCase()
    .split(/\s+/)
    .some((word) => word === "in:archive" || word === "-in:inbox");
}

/** A cursor-paginated list; the query's signal aborts a request whose filters went stale. */
export function useEmailList(params: EmailListParams, options: { enabled?: boolean } = {}) {
  const query = useInfiniteQuery({
    queryKey: emailKeys.list(params),
    queryFn: ({ pageParam, signal }) =>
      apiRequest<EmailListResponse>("GET", listUrl(params, pageParam), undefined, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: (previous) => previous,
    enabled: options.enabled ?? true,
  });
  // Memoised on the pages: with thousands loaded, flattening on every render cost whole frames.
  const pages = query.data?.pages;
  const archivedWanted = searchAsksForArchived(params.q);
  const emails = useMemo(
    () => (pages?.flatMap((p) => p.emails) ?? []).filter((e) => archivedWanted || isVisible(e)),
    [pages, archivedWanted],
  );
  return { ...query, emails };
}

/**
 * Every email of one bucket (the bucket dialog). Pages are read one after another until the end
 * so the dialog's counts are exact; each page is an index scan on the server. The cards and the
 * panel count from GET /api/emails/stats instead (useBucketCounts).
 */
export function useBucketEmails(bucket: Bucket, view?: "conversations") {
  const list = useEmailList({ bucket, limit: 200, ...(view ? { view } : {}) });
  const { hasNextPage, isFetchingNextPage, isFetching, fetchNextPage, isError } = list;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && !isFetching && !isError) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, isFetching, isError, fetchNextPage]);
  return { ...list, complete: !hasNextPage && !list.isPending };
}

export function useEmailStats() {
  return useQuery<EmailStats | null>({ queryKey: STATS_KEY });
}

/** The Analytics Dashboard's last 14 days and top senders (GET /api/emails/analytics). */
export function useEmailAnalytics() {
  return useQuery<EmailAnalytics | null>({ queryKey: ANALYTICS_KEY });
}

/** One bucket's inbox total and unread count, from the one stats call every card shares. */
export function useBucketCounts(bucket: Bucket): { total: number; unread: number } | null {
  const { data } = useEmailStats();
  return data?.buckets[bucket] ?? null;
}

export function useActionItems() {
  return useQuery<ActionItems | null>({ queryKey: ACTION_ITEMS_KEY });
}

/**
 * Spec section 4: 100 minus unread/total*100, at least 0 (and 100 for an empty inbox), in whole
 * percents rounded down, so 100% means nothing is unread (2 of 1,671 unread is 99%, not 100%).
 * The read share is computed from integers: 100 - 3/10*100 is 69.99999999999999 in floating point.
 */
export function inboxZeroProgress(stats: Pick<EmailStats, "unreadCount" | "totalEmails"> | null | undefined) {
  if (!stats || stats.totalEmails <= 0) return 100;
  const read = stats.totalEmails - stats.unreadCount;
  return Math.max(0, Math.floor((read * 100) / stats.totalEmails));
}

/** How long GET /api/emails/stats may answer from its per-user cache (server/mail/stats-service.ts). */
const STATS_SERVER_CACHE_MS = 3_500;

/** After Sync is pressed, progress is watched this long even while the request still waits in line. */
const SYNC_WATCH_MS = 15_000;
let syncWatchUntil = 0;
/**
 * With no sync running the status is still read this often: a sync that a provider's push
 * started ends with a newer lastSyncedAt, which refreshes the mail views (issue 19.1).
 */
const IDLE_SYNC_POLL_MS = 10_000;
/** With the live stream up, new mail and finished syncs arrive as events: the poll only checks. */
const LIVE_IDLE_SYNC_POLL_MS = 60_000;

/** Watches sync progress every second for a while: after Sync, or after an account was linked. */
export function watchSync(): void {
  syncWatchUntil = Date.now() + SYNC_WATCH_MS;
}

const ACTIVE_SYNC = new Set<SyncStatus["status"]>(["syncing", "backfilling"]);

export function isSyncing(status: SyncStatus): boolean {
  return ACTIVE_SYNC.has(status.status);
}

/** Refreshes every mail view: lists, stats and action items. */
export function refreshMail(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: EMAILS_KEY }),
    queryClient.invalidateQueries({ queryKey: STATS_KEY }),
    queryClient.invalidateQueries({ queryKey: ACTION_ITEMS_KEY }),
  ]);
}

/**
 * Per-account sync progress, polled every second while an account syncs or backfills. The mail
 * views are refreshed as the count grows (at most every 3 s) and whenever a sync finished after
 * they were last read (a first sync may end between the lists' read and this poll).
 */
export function useSyncStatus() {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: SYNC_STATUS_KEY,
    queryFn: ({ signal }) =>
      apiRequest<{ accounts: SyncStatus[] }>("GET", SYNC_STATUS_KEY[0], undefined, { signal }),
    refetchInterval: (q) =>
      q.state.data?.accounts.some(isSyncing) || Date.now() < syncWatchUntil
        ? 1000
        : isLive()
          ? LIVE_IDLE_SYNC_POLL_MS
          : IDLE_SYNC_POLL_MS,
  });
  const accounts = query.data?.accounts ?? [];
  const syncing = accounts.some(isSyncing);
  const synced = accounts.reduce((n, a) => n + a.syncedCount, 0);
  const lastSynced = accounts.reduce(
    (t, a) => Math.max(t, a.lastSyncedAt ? Date.parse(a.lastSyncedAt) : 0),
    0,
  );
  // The lists on screen were read about when the dashboard mounted.
  const refreshedAt = useRef(Date.now());
  // A pass seen running since the last refresh: its backfilled rows are not sent as events.
  const sawSyncing = useRef(false);
  useEffect(() => {
    const now = Date.now();
    if (syncing) sawSyncing.current = true;
    // With the live stream up, an incremental sync's mail came as events: no full refetch.
    const finishedSince = lastSynced > refreshedAt.current && (!isLive() || sawSyncing.current);
    if (lastSynced > refreshedAt.current && !finishedSince) refreshedAt.current = lastSynced;
    const grownWhileSyncing = syncing && synced > 0 && now - refreshedAt.current > 3000;
    if (finishedSince || grownWhileSyncing) {
      if (!syncing) sawSyncing.current = false;
      refreshedAt.current = now;
      void refreshMail(queryClient);
    }
    if (!finishedSince) return;
    // The server keeps its counts for up to 3 s and a sync does not drop them: read them again.
    const timer = setTimeout(
      () => void queryClient.invalidateQueries({ queryKey: STATS_KEY }),
      STATS_SERVER_CACHE_MS,
    );
    return () => clearTimeout(timer);
  }, [syncing, synced, lastSynced, queryClient]);
  return { ...query, accounts, syncing };
}

/** POST /api/emails/auto-sync; on success refreshes emails, stats, action items and progress. */
export function useAutoSync() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<{ queued: number; status: SyncStatus[] }>("POST", "/api/emails/auto-sync"),
    onSuccess: (answer) => {
      watchSync();
      queryClient.setQueryData(SYNC_STATUS_KEY, { accounts: answer.status });
      void refreshMail(queryClient);
      void queryClient.invalidateQueries({ queryKey: SYNC_STATUS_KEY });
    },
    onError: (error) => toast({ title: "Sync failed", description: error.message, variant: "destructive" }),
  });
}

/** The spec's refreshEmails window event re-reads the lists (and the figures built on them). */
export function useRefreshEmailsListener(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const onRefresh = () => void refreshMail(queryClient);
    window.addEventListener(REFRESH_EMAILS_EVENT, onRefresh);
    return () => window.removeEventListener(REFRESH_EMAILS_EVENT, onRefresh);
  }, [queryClient]);
}

/** A change the client can apply to a cached email at once. */
export type EmailChange = Partial<Pick<Email, "isRead" | "isStarred" | "isFlagged" | "isArchived">> & {
  deleted?: boolean;
};

type Snapshot = Array<[readonly unknown[], unknown]>;

/**
 * Applies a change to every cached copy of the given emails (lists and details) and returns what
 * was there before, for a rollback. Archived and deleted emails leave the lists at once.
 */
export function applyEmailChange(
  queryClient: QueryClient,
  ids: readonly string[],
  change: EmailChange,
): Snapshot {
  const wanted = new Set(ids);
  const snapshot: Snapshot = [];
  const { deleted, ...flags } = change;
  const leaves = deleted === true || flags.isArchived === true;
  // The emails as they were, for the per-bucket counts below.
  const before = new Map<string, Email>();
  for (const [key, data] of queryClient.getQueriesData<EmailPages>({ queryKey: emailKeys.lists })) {
    if (!data) continue;
    for (const page of data.pages) for (const e of page.emails) if (wanted.has(e.id)) before.set(e.id, e);
    snapshot.push([key, data]);
    queryClient.setQueryData<EmailPages>(key, {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        emails: page.emails.flatMap((e) => {
          if (!wanted.has(e.id)) return [e];
          return leaves ? [] : [{ ...e, ...flags }];
        }),
      })),
    });
  }
  for (const id of ids) {
    const key = emailKeys.detail(id);
    const data = queryClient.getQueryData<Email>(key);
    if (!data) continue;
    snapshot.push([key, data]);
    queryClient.setQueryData<Email>(key, { ...data, ...flags });
  }
  for (const id of ids) {
    const data = queryClient.getQueryData<Email>(emailKeys.detail(id));
    if (data && !before.has(id)) before.set(id, data);
  }
  const stats = queryClient.getQueryData<EmailStats | null>(STATS_KEY);
  if (stats && (flags.isRead !== undefined || leaves)) {
    snapshot.push([STATS_KEY, stats]);
    const delta = flags.isRead === undefined ? 0 : flags.isRead ? -ids.length : ids.length;
    // The bucket cards count from the stats: move the emails whose state is known to the cache.
    const buckets = Object.fromEntries(
      Object.entries(stats.buckets).map(([b, c]) => [b, { ...c }]),
    ) as EmailStats["buckets"];
    for (const email of before.values()) {
      const counts = email.bucket ? buckets[email.bucket] : undefined;
      if (!counts || email.isArchived) continue;
      const wasUnread = !email.isRead;
      const isUnread = !(flags.isRead ?? email.isRead);
      if (leaves) {
        counts.total = Math.max(0, counts.total - 1);
        if (wasUnread) counts.unread = Math.max(0, counts.unread - 1);
      } else if (wasUnread !== isUnread) {
        counts.unread = Math.max(0, Math.min(counts.total, counts.unread + (isUnread ? 1 : -1)));
      }
    }
    queryClient.setQueryData<EmailStats>(STATS_KEY, {
      ...stats,
      unreadCount: Math.max(0, Math.min(stats.totalEmails, stats.unreadCount + delta)),
      buckets,
    });
  }
  return snapshot;
}

/**
 * Marks the moment an optimistic change is on screen: the end of the 100 ms budget that starts at
 * performance.mark("mw:action-start") on the key press. It waits for the next write to a cached
 * list (the optimistic change), then for the cache's zero-delay notification of React, then for
 * the frame that shows it.
 */
export function markActionPainted(queryClient: QueryClient): void {
  const cache = queryClient.getQueryCache();
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    unsubscribe();
    clearTimeout(giveUp);
    setTimeout(() => requestAnimationFrame(() => performance.mark("mw:action-painted")), 0);
  };
  const unsubscribe = cache.subscribe((event) => {
    if (event.type === "updated" && event.action.type === "success" && event.query.queryKey[1] === "list")
      finish();
  });
  // Nothing cached to change (e.g. the email is only in the reader): the frame after this one.
  const giveUp = setTimeout(finish, 1000);
}

/** POST /api/emails/bulk-action (spec section 7): on success refreshes emails and stats. */
export function useBulkAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, emailIds }: { action: "archive" | "markRead"; emailIds: string[] }) =>
      apiRequest<unknown>("POST", "/api/emails/bulk-action", { action, emailIds }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: EMAILS_KEY });
      void queryClient.invalidateQueries({ queryKey: STATS_KEY });
    },
    onError: (error, { action }) =>
      toast(
        failureToast(
          error,
          action === "archive" ? "Failed to archive emails" : "Failed to mark emails as read",
        ),
      ),
  });
}
