import { useVirtualizer } from "@tanstack/react-virtual";
import { forwardRef, memo, useCallback, useEffect, useRef } from "react";
import type { MailAccount } from "../../../../contract/auth.ts";
import type { Email } from "../../../../contract/mail.ts";
import { NoReplyMark } from "../followups/no-reply-mark.tsx";
import { openModalCount } from "../keyboard/shortcuts.ts";
import { ResurfacedMark } from "../snooze/snoozed-card.tsx";
import { formatCount, formatListDate } from "./format.ts";
import { PaperclipMark, rowSummary } from "./row-summary.tsx";
import { SearchHelp } from "./search-help.tsx";
import type { UnifiedInbox } from "./use-unified-inbox.ts";

/** Every row has the same height, so the virtualizer never measures while scrolling. */
export const INBOX_ROW_HEIGHT = 76;

interface Props {
  inbox: UnifiedInbox;
  accounts: MailAccount[];
  onOpenEmail: (id: string) => void;
}

/** "Browse Emails": one list over all accounts, with search and an account filter. */
export const InboxSection = forwardRef<HTMLInputElement, Props>(function InboxSection(
  { inbox, accounts, onOpenEmail },
  searchRef,
) {
  // Every row names its account, even with one connected: people add a second one later.
  const showAccount = accounts.length > 0;
  return (
    <section
      id="inbox"
      aria-labelledby="inbox-title"
      className="flex min-w-0 flex-col rounded-2xl border border-slate-200 bg-white"
    >
      <div className="flex flex-wrap items-center gap-2 border-b border-slate-200 p-3 sm:p-4">
        <h2 id="inbox-title" className="mr-auto text-lg font-semibold text-slate-900">
          All inboxes
        </h2>
        <div className="relative flex w-full items-center gap-2 sm:w-80">
          <label htmlFor="inbox-search" className="sr-only">
            Search all accounts
          </label>
          <input
            ref={searchRef}
            id="inbox-search"
            type="search"
            value={inbox.search}
            onChange={(e) => inbox.setSearch(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Escape" || (e.key === "Enter" && inbox.emails.length > 0)) {
                e.preventDefault();
                if (e.key === "Enter" && !inbox.selected) inbox.move(1);
                e.currentTarget.blur();
              }
            }}
            placeholder="Search all accounts  ( / )"
            autoComplete="off"
            className="min-w-0 flex-1 rounded-lg border border-slate-300 px-3 py-2 text-sm focus:border-brand-600 focus:outline-2 focus:outline-brand-600"
          />
          <SearchHelp />
        </div>
        <label htmlFor="inbox-account" className="sr-only">
          Account
        </label>
        <select
          id="inbox-account"
          value={inbox.accountId ?? ""}
          onChange={(e) => inbox.setAccountId(e.target.value || null)}
          className="w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm sm:w-56"
        >
          <option value="">All accounts</option>
          {accounts.map((a) => (
            <option key={a.id} value={a.id}>
              {a.email}
            </option>
          ))}
        </select>
      </div>
      <p className="sr-only" aria-live="polite">
        {inbox.searching
          ? ""
          : `${formatCount(inbox.emails.length)}${inbox.hasNextPage ? "+" : ""} ${inbox.conversations ? "conversations" : "emails"}`}
      </p>
      <InboxRows inbox={inbox} showAccount={showAccount} onOpenEmail={onOpenEmail} />
    </section>
  );
});

function InboxRows({
  inbox,
  showAccount,
  onOpenEmail,
}: {
  inbox: UnifiedInbox;
  showAccount: boolean;
  onOpenEmail: (id: string) => void;
}) {
  const { emails, hasNextPage, isFetchingNextPage, fetchNextPage, selectedIndex } = inbox;
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: emails.length + (hasNextPage ? 1 : 0),
    getScrollElement: () => scrollRef.current,
    estimateSize: () => INBOX_ROW_HEIGHT,
    overscan: 10,
    getItemKey: (i) => emails[i]?.id ?? `loader-${i}`,
  });
  const items = virtualizer.getVirtualItems();
  const lastItem = items.at(-1);
  // Stable row callbacks, so a memoised row re-renders only when its own email or state changes:
  // a page arriving or a scroll frame then renders the new rows, not every visible one.
  const openRef = useRef(onOpenEmail);
  openRef.current = onOpenEmail;
  const { setSelectedId } = inbox;
  const selectRow = useCallback((id: string) => setSelectedId(id), [setSelectedId]);
  const openRow = useCallback(
    (id: string) => {
      setSelectedId(id);
      openRef.current(id);
    },
    [setSelectedId],
  );

  // The next page is asked for while the last rows come into view, so scrolling never waits.
  useEffect(() => {
    if (lastItem && lastItem.index >= emails.length - 20 && hasNextPage && !isFetchingNextPage)
      void fetchNextPage();
  }, [lastItem, emails.length, hasNextPage, isFetchingNextPage, fetchNextPage]);

  const selectedId = inbox.selected?.id;
  useEffect(() => {
    if (selectedIndex < 0 || !selectedId) return;
    virtualizer.scrollToIndex(selectedIndex, { align: "auto" });
    // Focus follows the keyboard cursor, so Enter and Tab start from the selected row; never
    // while a dialog is open or someone is typing.
    const frame = requestAnimationFrame(() => {
      const active = document.activeElement;
      if (
        openModalCount() > 0 ||
        (active instanceof HTMLElement && active.matches("input, textarea, select"))
      )
        return;
      scrollRef.current?.querySelector<HTMLElement>(`[data-email-id="${CSS.escape(selectedId)}"]`)?.focus({
        preventScroll: true,
      });
    });
    return () => cancelAnimationFrame(frame);
  }, [selectedIndex, selectedId, virtualizer]);

  if (inbox.isPending)
    return (
      <p className="p-6 text-sm text-slate-500" role="status">
        Loading emails…
      </p>
    );
  if (inbox.isError && emails.length === 0)
    return <p className="p-6 text-sm text-red-700">Could not load your emails. Try Sync.</p>;
  if (emails.length === 0)
    return (
      <p className="p-6 text-sm text-slate-500">{inbox.q ? `No emails match “${inbox.q}”` : "No emails"}</p>
    );

  return (
    <div
      ref={scrollRef}
      className="h-[60vh] min-h-72 overflow-y-auto overscroll-contain"
      data-testid="inbox-scroll"
    >
      <ul aria-label="Emails" className="relative" style={{ height: virtualizer.getTotalSize() }}>
        {items.map((item) => {
          const email = emails[item.index];
          return (
            <li
              key={item.key}
              className="absolute inset-x-0 top-0"
              style={{ height: item.size, transform: `translateY(${item.start}px)` }}
            >
              {email ? (
                <InboxRow
                  email={email}
                  selected={item.index === selectedIndex}
                  showAccount={showAccount}
                  onSelect={selectRow}
                  onOpen={openRow}
                />
              ) : (
                <p className="px-4 py-6 text-sm text-slate-500">Loading more…</p>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

const InboxRow = memo(function InboxRow({
  email,
  selected,
  showAccount,
  onSelect,
  onOpen,
}: {
  email: Email;
  selected: boolean;
  showAccount: boolean;
  onSelect: (id: string) => void;
  onOpen: (id: string) => void;
}) {
  const row = rowSummary(email);
  return (
    <button
      type="button"
      onClick={() => onOpen(email.id)}
      onFocus={() => onSelect(email.id)}
      aria-current={selected || undefined}
      data-email-id={email.id}
      data-conversation-id={email.conversationId}
      data-selected={selected || undefined}
      className={`flex h-full w-full min-w-0 items-start gap-3 border-b border-slate-100 px-3 py-2 text-left focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600 sm:px-4 ${
        selected ? "bg-brand-50 shadow-[inset_3px_0_0_var(--color-brand-600)]" : "hover:bg-slate-50"
      }`}
    >
      <span
        className={`mt-2 h-2 w-2 shrink-0 rounded-full ${row.unread ? "bg-brand-600" : "bg-transparent"}`}
        aria-hidden="true"
      />
      <span className="min-w-0 flex-1">
        <span className="flex items-baseline gap-2">
          <span
            className={`truncate text-sm ${row.unread ? "font-semibold text-slate-900" : "text-slate-700"}`}
            data-testid="row-who"
          >
            {row.who}
          </span>
          {email.isStarred ? (
            <span className="text-amber-500" title="Starred">
              <span aria-hidden="true">★</span>
              <span className="sr-only">Starred</span>
            </span>
          ) : null}
          {row.hasAttachments ? <PaperclipMark /> : null}
          <NoReplyMark email={email} />
          {email.resurfacedAt && email.resurfaceReason === "snoozed" ? (
            <ResurfacedMark at={email.resurfacedAt} reason={email.resurfaceReason} />
          ) : null}
          <span className="ml-auto shrink-0 text-xs text-slate-500">{formatListDate(email.date)}</span>
        </span>
        <span
          className={`block truncate text-sm ${row.unread ? "font-medium text-slate-900" : "text-slate-700"}`}
        >
          {email.subject || "(no subject)"}
          {row.unread ? <span className="sr-only"> (unread)</span> : null}
        </span>
        <span className="flex items-center gap-2">
          <span className="min-w-0 flex-1 truncate text-xs text-slate-500">{email.snippet}</span>
          {showAccount ? (
            <span
              className="max-w-[40%] shrink-0 truncate rounded bg-slate-100 px-1.5 py-0.5 text-[11px] text-slate-700"
              data-testid="row-account"
            >
              {email.accountEmail}
            </span>
          ) : null}
        </span>
      </span>
    </button>
  );
});
