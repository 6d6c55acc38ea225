import { useQuery } from "@tanstack/react-query";
import { Dialog } from "radix-ui";
import type { Email } from "../../../../contract/mail.ts";
import { apiRequest } from "../../lib/api.ts";
import { emailKeys } from "../../lib/mail-queries.ts";
import { formatListDate } from "../inbox/format.ts";

export interface EmailViewerProps {
  emailId: string | null;
  onClose: () => void;
  onReply: (id: string) => void;
  onArchive: (id: string) => void;
  onToggleStar: (email: Email) => void;
  onDelete: (id: string) => void;
}

/**
 * A plain-text stand-in for the reader (web/src/features/reader) until it is mounted: the text
 * body only, never the sender's HTML.
 */
export function EmailPreview({
  emailId,
  onClose,
  onReply,
  onArchive,
  onToggleStar,
  onDelete,
}: EmailViewerProps) {
  const { data: email, isPending } = useQuery({
    queryKey: emailKeys.detail(emailId ?? ""),
    queryFn: ({ signal }) =>
      apiRequest<Email>("GET", `/api/emails/${encodeURIComponent(emailId ?? "")}`, undefined, { signal }),
    enabled: emailId !== null,
  });
  const btn =
    "rounded-lg border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600";
  return (
    <Dialog.Root open={emailId !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
        <Dialog.Content className="fixed inset-0 z-50 flex flex-col bg-white focus:outline-none sm:inset-auto sm:top-1/2 sm:left-1/2 sm:h-[85vh] sm:w-[calc(100vw-2rem)] sm:max-w-3xl sm:-translate-x-1/2 sm:-translate-y-1/2 sm:rounded-2xl sm:shadow-xl">
          <div className="flex items-start justify-between gap-4 border-b border-slate-200 p-4">
            <div className="min-w-0">
              <Dialog.Title className="text-lg font-semibold break-words text-slate-900">
                {email ? email.subject || "(no subject)" : "Loading…"}
              </Dialog.Title>
              <Dialog.Description className="mt-1 truncate text-sm text-slate-600">
                {email ? `${email.from} · ${email.accountEmail} · ${formatListDate(email.date)}` : ""}
              </Dialog.Description>
            </div>
            <Dialog.Close
              className="rounded px-2 text-xl leading-none text-slate-500 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-brand-600"
              aria-label="Close"
            >
              ×
            </Dialog.Close>
          </div>
          {email ? (
            <div className="flex flex-wrap gap-2 border-b border-slate-100 px-4 py-2">
              <button type="button" className={btn} onClick={() => onReply(email.id)}>
                Reply
              </button>
              <button type="button" className={btn} onClick={() => onArchive(email.id)}>
                Archive
              </button>
              <button
                type="button"
                className={btn}
                onClick={() => onToggleStar(email)}
                aria-pressed={email.isStarred}
              >
                {email.isStarred ? "Unstar" : "Star"}
              </button>
              <button type="button" className={btn} onClick={() => onDelete(email.id)}>
                Delete
              </button>
            </div>
          ) : null}
          <div className="min-h-0 flex-1 overflow-y-auto p-4">
            {isPending ? (
              <p className="text-sm text-slate-500">Loading…</p>
            ) : (
              <pre className="font-sans text-sm break-words whitespace-pre-wrap text-slate-800">
                {email?.bodyText ?? email?.snippet ?? ""}
              </pre>
            )}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
