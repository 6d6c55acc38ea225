/**
 * Merges the live stream's events into the TanStack Query cache (issue 38): new rows go into the
 * loaded pages of every list they belong to (in a conversation list, as their conversation's
 * row), changed rows are patched or leave the lists, and only the small figures (stats, action
 * items) are read again. A search list, whose filter only the server reads, is refetched instead.
 */
import type { InfiniteData, QueryClient } from "@tanstack/react-query";
import type { ConversationSummary } from "../../../contract/conversations.ts";
import type { LiveChange, LiveEventName, LiveEvents } from "../../../contract/live-events.ts";
import type { Email, EmailListResponse } from "../../../contract/mail.ts";
import { toast } from "../components/ui/toast-store.ts";
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
import { refusedText } from "./refused-text.ts";

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

/** Lists whose rows the client cannot place by itself: a search (the server parses it). */
function placeable(params: EmailListParams): boolean {
  return !params.q;
}

type Row = Email & { conversation?: ConversationSummary };

/** "Dana, me (3)": the names without the count. */
function namesOf(participants: string): string {
  return participants.replace(/ \(\d+\)$/, "");
}

function firstName(email: Email): string {
  return (
    (email.fromName.trim().split(/\s+/)[0] ?? "") || email.fromAddress.split("@")[0] || email.fromAddress
  );
}

/**
 * The summary of a conversation row after a new message joined it (or started it). The server
 * spells participants oldest first with the count; the next read of the list corrects any detail.
 */
function joined(previous: ConversationSummary | undefined, row: Email): ConversationSummary {
  if (!previous)
    return {
      id: row.conversationId,
      count: 1,
      participants: firstName(row),
      unread: !row.isRead,
      hasAttachments: row.hasAttachments,
    };
  const count = previous.count + 1;
  const names = namesOf(previous.participants);
  const name = firstName(row);
  const list = names.split(", ").includes(name) ? names : `${names}, ${name}`;
  return {
    ...previous,
    count,
    participants: `${list} (${count})`,
    unread: previous.unread || !row.isRead,
    hasAttachments: previous.hasAttachments || row.hasAttachments,
  };
}

/** A conversation row's summary after its newest message changed elsewhere (read, say). */
function patched(previous: ConversationSummary, row: Email): ConversationSummary {
  return { ...previous, unread: previous.count === 1 ? !row.isRead : previous.unread || !row.isRead };
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
  const grouped = params.view === "conversations";
  const byId = new Map(rows.map((row) => [row.id, row]));
  // One row per conversation: a new message replaces its conversation's row (and moves it up).
  const newestOf = new Map<string, Email>();
  if (grouped && insert) {
    for (const row of rows) {
      const known = newestOf.get(row.conversationId);
      if (belongsTo(params, row) && (!known || before(row, known))) newestOf.set(row.conversationId, row);
    }
  }
  const summaries = new Map<string, ConversationSummary>();
  let changed = false;
  const seen = new Set<string>();
  let pages = data.pages.map((page) => {
    const emails = page.emails.flatMap((email: Row) => {
      if (gone.has(email.id)) {
        changed = true;
        return [];
      }
      const row = byId.get(email.id);
      const newer = grouped ? newestOf.get(email.conversationId) : undefined;
      if (newer && newer.id !== email.id && before(newer, email)) {
        // Taken out here; put back in order below with the grown summary.
        if (email.conversation) summaries.set(email.conversationId, email.conversation);
        changed = true;
        return [];
      }
      if (!row) return [email];
      seen.add(email.id);
      changed = true;
      if (!belongsTo(params, row)) return [];
      // A conversation row keeps its summary; its flags follow the message.
      return [
        email.conversation
          ? { ...email, ...row, conversation: patched(email.conversation, row) }
          : { ...email, ...row },
      ];
    });
    return { ...page, emails };
  });
  if (insert) {
    const lastPage = pages.at(-1);
    const more = lastPage?.nextCursor != null;
    const oldest = lastPage?.emails.at(-1);
    for (const found of rows) {
      if (seen.has(found.id) || !belongsTo(params, found)) continue;
      if (grouped && newestOf.get(found.conversationId)?.id !== found.id) continue;
      // Older than everything loaded while more pages exist: it comes with those pages.
      if (more && oldest && !before(found, oldest)) continue;
      const row: Row = grouped
        ? { ...found, conversation: joined(summaries.get(found.conversationId), found) }
        : found;
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
    case "write.refused": {
      // The server answered before the provider wrote the change back, and the provider said no:
      // the rows are as they were again, and the person hears which action did not take.
      const event = data as LiveEvents["write.refused"];
      const present = new Set(event.emails.map((e) => e.id));
      mergeRows(queryClient, event.emails, new Set(event.ids.filter((id) => !present.has(id))), false);
      for (const id of event.ids)
        void queryClient.invalidateQueries({ queryKey: emailKeys.detail(id), exact: true });
      void queryClient.invalidateQueries({ queryKey: emailKeys.lists });
      refreshFigures(queryClient);
      toast({
        title: "Error",
        description: refusedText(event.action, event.ids.length),
        variant: "destructive",
      });
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
