/**
 * Merges the live stream's events into the TanStack Query cache (issue 38): new rows go into the
 * first loaded page of every list they belong to, changed rows are patched or leave the lists,
 * and only the small figures (stats, action items) are read again. Lists this cannot place a row
 * in exactly (searches, one row per conversation) are refetched instead.
 */
import type { InfiniteData, QueryClient } from "@tanstack/react-query";
import type { LiveChange, LiveEventName, LiveEvents } from "../../../contract/live-events.ts";
import type { Email, EmailListResponse } from "../../../contract/mail.ts";
import {
  ACTION_ITEMS_KEY,
  applyEmailChange,
  type EmailListParams,
  emailKeys,
  isVisible,
  refreshMail,
  STATS_KEY,
  SYNC_STATUS_KEY,
} from "./mail-queries.ts";

type EmailPages = InfiniteData<EmailListResponse, string | null>;

/** How long the server may answer stats from its per-user cache (server/mail/stats-service.ts). */
const STATS_SERVER_CACHE_MS = 3_500;

/** Whether a list of these filters shows the email. */
export function belongsTo(params: EmailListParams, email: Email): boolean {
  if (!isVisible(email)) return false;
  if (params.bucket && email.bucket !== params.bucket) return false;
  if (params.accountId && email.accountId !== params.accountId) return false;
  if (params.unread !== undefined && email.isRead === params.unread) return false;
  return true;
}

/** Lists whose rows the client cannot place by itself: a search, or one row per conversation. */
function placeable(params: EmailListParams): boolean {
  return !params.q && params.view !== "conversations";
}

/** Newer first, then the larger id: the server's order (server/mail/email-lister.ts). */
function before(a: Email, b: Email): boolean {
  const at = Date.parse(a.date);
  const bt = Date.parse(b.date);
  return at > bt || (at === bt && a.id > b.id);
}

/**
 * Places the rows in one cached list: replaced where they are, removed when they no longer
 * belong (or their id is in `gone`), inserted in order when they belong and fall within the pages
 * loaded so far. Returns the new data, or undefined when nothing changed.
 */
export function placeRows(
  params: EmailListParams,
  data: EmailPages,
  rows: readonly Email[],
  gone: ReadonlySet<string>,
  insert: boolean,
): EmailPages | undefined {
  const byId = new Map(rows.map((row) => [row.id, row]));
  let changed = false;
  const seen = new Set<string>();
  let pages = data.pages.map((page) => {
    const emails = page.emails.flatMap((email) => {
      if (gone.has(email.id)) {
        changed = true;
        return [];
      }
      const row = byId.get(email.id);
      if (!row) return [email];
      seen.add(email.id);
      changed = true;
      // A conversation row keeps its summary; its flags follow the message.
      return belongsTo(params, row) ? [{ ...email, ...row }] : [];
    });
    return { ...page, emails };
  });
  if (insert) {
    const lastPage = pages.at(-1);
    const more = lastPage?.nextCursor != null;
    const oldest = lastPage?.emails.at(-1);
    for (const row of rows) {
      if (seen.has(row.id) || !belongsTo(params, row)) continue;
      // Older than everything loaded while more pages exist: it comes with those pages.
      if (more && oldest && !before(row, oldest)) continue;
      changed = true;
      let placed = false;
      pages = pages.map((page) => {
        if (placed) return page;
        const at = page.emails.findIndex((email) => before(row, email));
        if (at < 0) return page;
        placed = true;
        return { ...page, emails: [...page.emails.slice(0, at), row, ...page.emails.slice(at)] };
      });
      if (!placed) {
        const last = pages.length - 1;
        pages = pages.map((page, i) => (i === last ? { ...page, emails: [...page.emails, row] } : page));
      }
    }
  }
  return changed ? { ...data, pages } : undefined;
}

/** Rows from the server (new, changed by a sync, analysed) into every cached list and reader copy. */
function mergeRows(
  queryClient: QueryClient,
  rows: readonly Email[],
  gone: ReadonlySet<string>,
  isNew: boolean,
) {
  for (const [key, data] of queryClient.getQueriesData<EmailPages>({ queryKey: emailKeys.lists })) {
    if (!data) continue;
    const params = (key[2] ?? {}) as EmailListParams;
    if (!placeable(params)) {
      if (isNew) void queryClient.invalidateQueries({ queryKey: key, exact: true });
      else {
        const next = placeRows(params, data, rows, gone, false);
        if (next) queryClient.setQueryData(key, next);
      }
      continue;
    }
    const next = placeRows(params, data, rows, gone, true);
    if (next) queryClient.setQueryData(key, next);
  }
  for (const row of rows) {
    const key = emailKeys.detail(row.id);
    const detail = queryClient.getQueryData<Email>(key);
    // The reader keeps its bodies and whole analysis; the flags follow the stored row.
    if (detail)
      queryClient.setQueryData<Email>(key, {
        ...detail,
        isRead: row.isRead,
        isStarred: row.isStarred,
        isFlagged: row.isFlagged,
        isArchived: row.isArchived,
        bucket: row.bucket,
      });
  }
}

/** Reads the figures again now, and once more when the server's own stats cache has expired. */
function refreshFigures(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: STATS_KEY });
  void queryClient.invalidateQueries({ queryKey: ACTION_ITEMS_KEY });
  setTimeout(() => void queryClient.invalidateQueries({ queryKey: STATS_KEY }), STATS_SERVER_CACHE_MS);
}

/** Every cached copy of the email (list rows and the reader's). */
function cachedCopies(queryClient: QueryClient, id: string): Email[] {
  const out: Email[] = [];
  for (const [, data] of queryClient.getQueriesData<EmailPages>({ queryKey: emailKeys.lists })) {
    for (const page of data?.pages ?? []) for (const e of page.emails) if (e.id === id) out.push(e);
  }
  const detail = queryClient.getQueryData<Email>(emailKeys.detail(id));
  if (detail) out.push(detail);
  return out;
}

function shows(email: Email, change: LiveChange): boolean {
  return (Object.keys(change) as Array<keyof LiveChange>).every((k) =>
    k === "deleted" ? false : email[k] === change[k],
  );
}

/**
 * An action from another tab or device. This tab's own actions come back too: copies that show
 * the change already are left alone, so counts are not moved twice.
 */
function applyAction(queryClient: QueryClient, ids: readonly string[], change: LiveChange): void {
  if (change.isArchived === false) {
    // Unarchived mail was in no list here: the lists are read again.
    void refreshMail(queryClient);
    return;
  }
  const differing: string[] = [];
  let unknown = false;
  for (const id of ids) {
    const copies = cachedCopies(queryClient, id);
    if (copies.length === 0) unknown = true;
    else if (!copies.every((copy) => shows(copy, change))) differing.push(id);
  }
  if (differing.length > 0) applyEmailChange(queryClient, differing, change);
  if (unknown) refreshFigures(queryClient);
}

/** Applies one event of the stream to the cache. */
export function applyLiveEvent(queryClient: QueryClient, name: LiveEventName | "ready", data: unknown): void {
  switch (name) {
    case "mail.new": {
      const { emails } = data as LiveEvents["mail.new"];
      mergeRows(queryClient, emails, new Set(), true);
      refreshFigures(queryClient);
      return;
    }
    case "mail.changed": {
      const event = data as LiveEvents["mail.changed"];
      if (event.change) {
        applyAction(queryClient, event.ids, event.change);
        return;
      }
      const present = new Set(event.emails.map((e) => e.id));
      mergeRows(queryClient, event.emails, new Set(event.ids.filter((id) => !present.has(id))), false);
      refreshFigures(queryClient);
      return;
    }
    case "analysis.done": {
      const { emails } = data as LiveEvents["analysis.done"];
      mergeRows(queryClient, emails, new Set(), false);
      // The reader's whole analysis (summary, key points) is read again when it is open.
      for (const e of emails)
        void queryClient.invalidateQueries({ queryKey: emailKeys.detail(e.id), exact: true });
      refreshFigures(queryClient);
      return;
    }
    case "sync.progress":
      void queryClient.invalidateQueries({ queryKey: SYNC_STATUS_KEY });
      return;
    case "refetch":
      void refreshMail(queryClient);
      return;
    case "ready":
      return;
  }
}
