import { useVirtualizer } from "@tanstack/react-virtual";
import { Dialog } from "radix-ui";
import { useRef, useState } from "react";
import { BUCKET_TITLES, type Bucket } from "../../../../contract/buckets.ts";
import type { Email } from "../../../../contract/mail.ts";
import { DialogRoot } from "../../components/ui/dialog-root.tsx";
import { useBucketEmails, useBulkAction } from "../../lib/mail-queries.ts";
import {
  rowConversation,
  useConversationActions,
  useConversationView,
} from "../conversations/conversation-api.ts";
import { formatCount, formatListDate } from "../inbox/format.ts";
import { PaperclipMark, rowSummary } from "../inbox/row-summary.tsx";
import { AiBadges } from "./email-badges.tsx";

const btn =
  "inline-flex items-center justify-center rounded-lg px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:opacity-50";
const btnSecondary = `${btn} border border-slate-300 bg-white text-slate-800 hover:bg-slate-100`;
const btnPrimary = `${btn} bg-brand-600 text-white hover:bg-brand-700`;

interface Props {
  bucket: Bucket | null;
  onOpenChange: (open: boolean) => void;
  onOpenEmail: (id: string) => void;
}

/** The bucket detail view: every email of one bucket, counts, and bulk Mark Read / Archive. */
export function BucketDialog({ bucket, onOpenChange, onOpenEmail }: Props) {
  return (
    <DialogRoot open={bucket !== null} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
        <Dialog.Content className="fixed inset-0 z-50 flex flex-col bg-white focus:outline-none sm:inset-auto sm:top-1/2 sm:left-1/2 sm:h-[85vh] sm:w-[calc(100vw-2rem)] sm:max-w-2xl sm:-translate-x-1/2 sm:-translate-y-1/2 sm:rounded-2xl sm:shadow-xl">
          {bucket ? <BucketDialogBody key={bucket} bucket={bucket} onOpenEmail={onOpenEmail} /> : null}
        </Dialog.Content>
      </Dialog.Portal>
    </DialogRoot>
  );
}

function BucketDialogBody({ bucket, onOpenEmail }: { bucket: Bucket; onOpenEmail: (id: string) => void }) {
  const conversationView = useConversationView();
  const { emails, isPending } = useBucketEmails(bucket, conversationView ? "conversations" : undefined);
  const [selecting, setSelecting] = useState(false);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const bulk = useBulkAction();
  const conversationActions = useConversationActions();
  const unread = emails.filter((e) => rowSummary(e).unread).length;
  // Only emails still in the bucket count as selected (others were archived meanwhile).
  const selectedIds = emails.filter((e) => selected.has(e.id)).map((e) => e.id);
  const allSelected = emails.length > 0 && selectedIds.length === emails.length;

  const toggle = (id: string) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const run = (action: "archive" | "markRead") => {
    if (selectedIds.length === 0) return;
    // A conversation row of several messages acts on all of them, as the reader's actions do.
    const rows = emails.filter((e) => selected.has(e.id));
    const whole = rows.filter((e) => (rowConversation(e)?.count ?? 1) > 1);
    for (const e of whole)
      void (action === "archive"
        ? conversationActions.archive(e.conversationId)
        : conversationActions.setRead(e.conversationId, true));
    const single = rows.filter((e) => !whole.includes(e)).map((e) => e.id);
    if (single.length === 0) setSelected(new Set());
    else bulk.mutate({ action, emailIds: single }, { onSuccess: () => setSelected(new Set()) });
  };

  return (
    <>
      <div className="flex items-start justify-between gap-4 border-b border-slate-200 p-4 sm:p-6">
        <div>
          <Dialog.Title className="text-lg font-semibold text-slate-900">
            {BUCKET_TITLES[bucket]}
          </Dialog.Title>
          <Dialog.Description className="mt-1 text-sm text-slate-600" data-testid="bucket-counts">
            {isPending ? (
              "Loading…"
            ) : (
              <>
                <span>
                  {formatCount(emails.length)} {emails.length === 1 ? "email" : "emails"}
                </span>
                {" · "}
                <span>{formatCount(unread)} unread</span>
              </>
            )}
          </Dialog.Description>
        </div>
        <Dialog.Close
          className="rounded px-2 text-xl leading-none text-slate-500 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-brand-600"
          aria-label="Close"
        >
          ×
        </Dialog.Close>
      </div>

      <div className="flex flex-wrap items-center gap-2 border-b border-slate-100 px-4 py-3 sm:px-6">
        <button
          type="button"
          className={btnSecondary}
          aria-pressed={selecting}
          onClick={() => {
            setSelecting((s) => !s);
            setSelected(new Set());
          }}
        >
          {selecting ? "Cancel Selection" : "Select Multiple"}
        </button>
        {selecting ? (
          <>
            <button
              type="button"
              className={btnSecondary}
              disabled={emails.length === 0}
              onClick={() => setSelected(allSelected ? new Set() : new Set(emails.map((e) => e.id)))}
            >
              {allSelected ? "Deselect All" : "Select All"}
            </button>
            <span className="text-sm text-slate-600" aria-live="polite">
              {formatCount(selectedIds.length)} selected
            </span>
            <span className="flex-1" />
            <button
              type="button"
              className={btnSecondary}
              disabled={selectedIds.length === 0 || bulk.isPending}
              onClick={() => run("markRead")}
            >
              Mark Read
            </button>
            <button
              type="button"
              className={btnPrimary}
              disabled={selectedIds.length === 0 || bulk.isPending}
              onClick={() => run("archive")}
            >
              Archive
            </button>
          </>
        ) : null}
      </div>

      {!isPending && emails.length === 0 ? (
        <p className="p-6 text-center text-sm text-slate-500">No emails in this category</p>
      ) : (
        <BucketRows
          emails={emails}
          selecting={selecting}
          selected={selected}
          onToggle={toggle}
          onOpenEmail={onOpenEmail}
        />
      )}
    </>
  );
}

function BucketRows({
  emails,
  selecting,
  selected,
  onToggle,
  onOpenEmail,
}: {
  emails: Email[];
  selecting: boolean;
  selected: ReadonlySet<string>;
  onToggle: (id: string) => void;
  onOpenEmail: (id: string) => void;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: emails.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 104,
    overscan: 8,
    getItemKey: (i) => emails[i]?.id ?? i,
  });
  return (
    <div ref={scrollRef} className="min-h-0 flex-1 overflow-y-auto">
      <ul aria-label="Emails" className="relative" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const email = emails[item.index];
          if (!email) return null;
          const checkboxId = `bucket-select-${email.id}`;
          const row = rowSummary(email);
          return (
            <li
              key={item.key}
              ref={virtualizer.measureElement}
              data-index={item.index}
              className="absolute inset-x-0 flex items-start gap-3 border-b border-slate-100 px-4 py-3 sm:px-6"
              style={{ transform: `translateY(${item.start}px)` }}
            >
              {selecting ? (
                <input
                  id={checkboxId}
                  type="checkbox"
                  className="mt-1 h-4 w-4 shrink-0 accent-brand-600"
                  checked={selected.has(email.id)}
                  onChange={() => onToggle(email.id)}
                  aria-label={`Select ${email.subject || "(no subject)"}`}
                />
              ) : null}
              <button
                type="button"
                onClick={() => (selecting ? onToggle(email.id) : onOpenEmail(email.id))}
                className="block min-w-0 flex-1 rounded text-left focus-visible:outline-2 focus-visible:outline-brand-600"
              >
                <span className="flex items-baseline justify-between gap-2">
                  <span
                    className={`truncate ${row.unread ? "font-semibold text-slate-900" : "text-slate-800"}`}
                  >
                    {email.subject || "(no subject)"}
                  </span>
                  <span className="flex shrink-0 items-center gap-1.5 text-xs text-slate-500">
                    {row.hasAttachments ? <PaperclipMark /> : null}
                    {formatListDate(email.date)}
                  </span>
                </span>
                <span className="block truncate text-sm text-slate-700">{row.who}</span>
                <span className="line-clamp-2 text-sm text-slate-500">{email.snippet}</span>
                <span className="mt-1 block">
                  <AiBadges email={email} />
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
