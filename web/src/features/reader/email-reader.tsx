import { useQuery } from "@tanstack/react-query";
import { Dialog } from "radix-ui";
import { useEffect, useRef, useState } from "react";
import type { Email } from "../../../../contract/mail.ts";
import { DialogRoot } from "../../components/ui/dialog-root.tsx";
import { readSecurity } from "../ai/ai-api.ts";
import { InsightsPanel } from "../ai/insights-panel.tsx";
import { SecurityBadge, SecurityVerdict } from "../ai/security-verdict.tsx";
import { AttachmentList } from "../attachments/attachment-list.tsx";
import { InvitationCard } from "../calendar/invitation-card.tsx";
import {
  UNSUBSCRIBE_STATUS_KEY,
  type UnsubscribeStatusList,
  useBackgroundUnsubscribing,
} from "../mail-actions/unsubscribe-store.ts";
import { useEmailActions } from "../mail-actions/use-email-actions.ts";
import { EmailHtmlFrame } from "../mail-html/email-html-frame.tsx";
import { readerBody } from "./body.ts";
import { BTN_DANGER, BTN_PRIMARY, BTN_SECONDARY, OVERLAY, SHEET_CONTENT } from "./dialog-classes.ts";
import { InboxZeroProgress } from "./inbox-zero-progress.tsx";
import { useEmailDetail } from "./use-email-detail.ts";

export type ReaderAction = "archive" | "star" | "unstar" | "flag" | "unflag" | "delete" | "read" | "unread";

export interface EmailReaderProps {
  emailId: string | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Reply: the parent opens the compose dialog with this email; the reader closes itself. */
  onReply: (email: Email) => void;
  /** After an action succeeds on the screen (optimistically). */
  onAction?: (action: ReaderAction, email: Email) => void;
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

function formatDate(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : dateFormat.format(d);
}

function StarIcon({ filled }: { filled: boolean }) {
  return (
    <svg
      viewBox="0 0 24 24"
      className="h-4 w-4"
      fill={filled ? "currentColor" : "none"}
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
    >
      <path d="m12 2 3.1 6.3 6.9 1-5 4.9 1.2 6.8-6.2-3.2-6.2 3.2L7 14.2 2 9.3l6.9-1Z" />
    </svg>
  );
}

/** The email reader dialog (spec section 2). Opening an unread email marks it read. */
export function EmailReader({ emailId, open, onOpenChange, onReply, onAction }: EmailReaderProps) {
  const detail = useEmailDetail(open ? emailId : null);
  const email = detail.data;
  const actions = useEmailActions();
  const markedRead = useRef<string | null>(null);

  useEffect(() => {
    if (!open) {
      markedRead.current = null;
      return;
    }
    // The list's copy, shown while the details load, is enough: waiting for the details missed an
    // email the person moved past before they came (j right after opening it).
    if (!email || email.isRead || markedRead.current === email.id) return;
    markedRead.current = email.id;
    void actions.setRead(email, true);
  }, [open, email, actions]);

  return (
    <DialogRoot open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className={OVERLAY} />
        <Dialog.Content className={`${SHEET_CONTENT} sm:max-w-3xl`} aria-describedby={undefined}>
          {email ? (
            <ReaderContent
              email={email}
              loadingBody={detail.isPlaceholderData}
              onReply={() => {
                onReply(email);
                onOpenChange(false);
              }}
              onDone={(action) => {
                onAction?.(action, email);
                if (action === "archive" || action === "delete") onOpenChange(false);
              }}
            />
          ) : (
            <div className="flex flex-1 flex-col p-6">
              <div className="flex items-start justify-between gap-4">
                <Dialog.Title className="text-lg font-semibold text-slate-900">
                  {detail.isError ? "Email unavailable" : "Loading email…"}
                </Dialog.Title>
                <CloseButton />
              </div>
              <p className="mt-4 text-sm text-slate-600" role={detail.isError ? "alert" : "status"}>
                {detail.isError ? "This email could not be loaded. It may have been deleted." : "Loading…"}
              </p>
            </div>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </DialogRoot>
  );
}

function CloseButton() {
  return (
    <Dialog.Close
      aria-label="Close"
      className="shrink-0 rounded-lg px-2 py-1 text-xl leading-none text-slate-500 hover:bg-slate-100 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-brand-600"
    >
      ×
    </Dialog.Close>
  );
}

function ReaderContent({
  email,
  loadingBody,
  onReply,
  onDone,
}: {
  email: Email;
  loadingBody: boolean;
  onReply: () => void;
  onDone: (action: ReaderAction) => void;
}) {
  const actions = useEmailActions();
  const unsubscribing = useBackgroundUnsubscribing(email.fromAddress);
  const body = readerBody(email);
  const security = readSecurity(email.aiAnalysis);
  const [insightsOpen, setInsightsOpen] = useState(false);

  return (
    <>
      <div className="border-b border-slate-200 px-4 pt-4 pb-3 sm:px-6">
        <InboxZeroProgress />
        <div className="flex items-start justify-between gap-4">
          <div className="flex min-w-0 items-start gap-2">
            {email.isStarred ? (
              <span className="mt-1 text-amber-500" role="img" aria-label="Starred">
                <StarIcon filled />
              </span>
            ) : null}
            <Dialog.Title className="min-w-0 text-lg font-semibold break-words text-slate-900">
              {email.subject || "(no subject)"}
            </Dialog.Title>
            {email.isRead ? null : (
              <span className="mt-0.5 shrink-0 rounded-full bg-brand-600 px-2 py-0.5 text-xs font-semibold text-white">
                Unread
              </span>
            )}
            {email.isFlagged ? (
              <span className="mt-0.5 shrink-0 rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-800">
                Flagged
              </span>
            ) : null}
            {email.pending ? (
              <span
                title="Your last change is not confirmed by the provider yet; it is checked again shortly"
                className="mt-0.5 shrink-0 rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-700"
              >
                Pending
              </span>
            ) : null}
            {security ? (
              <span className="mt-0.5">
                <SecurityBadge scan={security} />
              </span>
            ) : null}
          </div>
          <CloseButton />
        </div>
        <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          <dt className="text-slate-500">From</dt>
          <dd className="min-w-0 break-words text-slate-900">{email.from}</dd>
          <dt className="text-slate-500">To</dt>
          <dd className="min-w-0 break-words text-slate-900">{email.to || "—"}</dd>
          {email.cc ? (
            <>
              <dt className="text-slate-500">Cc</dt>
              <dd className="min-w-0 break-words text-slate-900">{email.cc}</dd>
            </>
          ) : null}
          <dt className="text-slate-500">Date</dt>
          <dd className="text-slate-900">
            <time dateTime={email.date}>{formatDate(email.date)}</time>
          </dd>
        </dl>
        <div className="mt-3 flex flex-wrap gap-2" role="toolbar" aria-label="Email actions">
          <button type="button" className={BTN_PRIMARY} onClick={onReply} disabled={loadingBody}>
            Reply
          </button>
          <button
            type="button"
            className={BTN_SECONDARY}
            onClick={() => {
              void actions.archive(email);
              onDone("archive");
            }}
          >
            Archive
          </button>
          <button
            type="button"
            className={BTN_SECONDARY}
            aria-pressed={email.isStarred}
            onClick={() => {
              void actions.setStarred(email, !email.isStarred);
              onDone(email.isStarred ? "unstar" : "star");
            }}
          >
            <StarIcon filled={email.isStarred} />
            {email.isStarred ? "Unstar" : "Star"}
          </button>
          <button
            type="button"
            className={BTN_SECONDARY}
            aria-pressed={email.isFlagged}
            onClick={() => {
              void actions.setFlagged(email, !email.isFlagged);
              onDone(email.isFlagged ? "unflag" : "flag");
            }}
          >
            {email.isFlagged ? "Unflag" : "Flag"}
          </button>
          <button
            type="button"
            className={BTN_SECONDARY}
            onClick={() => {
              void actions.setRead(email, !email.isRead);
              onDone(email.isRead ? "unread" : "read");
            }}
          >
            {email.isRead ? "Mark as unread" : "Mark as read"}
          </button>
          <button
            type="button"
            className={BTN_DANGER}
            onClick={() => {
              void actions.remove(email);
              onDone("delete");
            }}
          >
            Delete
          </button>
          <button
            type="button"
            className={BTN_SECONDARY}
            aria-haspopup="dialog"
            onClick={() => setInsightsOpen(true)}
          >
            AI Insights
          </button>
          {email.canUnsubscribe ? (
            <button
              type="button"
              className={BTN_SECONDARY}
              disabled={unsubscribing}
              aria-busy={unsubscribing || undefined}
              onClick={() => void actions.unsubscribe(email)}
            >
              {unsubscribing ? "Processing..." : "Unsubscribe"}
            </button>
          ) : null}
        </div>
        {email.canUnsubscribe && !unsubscribing ? (
          <UnsubscribeOutcome senderAddress={email.fromAddress} />
        ) : null}
        {security ? (
          <div className="mt-3">
            <SecurityVerdict scan={security} warnOnly />
          </div>
        ) : null}
      </div>
      <InsightsPanel email={email} open={insightsOpen} onOpenChange={setInsightsOpen} />
      {/* Focusable, so a keyboard can scroll a long message (and its invitation) too. */}
      <section
        className="min-h-0 flex-1 overflow-y-auto px-4 py-4 focus-visible:outline-2 focus-visible:outline-brand-600 sm:px-6"
        aria-label="Message"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus (WCAG 2.1.1)
        tabIndex={0}
      >
        {loadingBody ? null : <InvitationCard emailId={email.id} risk={security?.verdict} />}
        {loadingBody ? null : (
          <AttachmentList
            source={{ emailId: email.id, provider: email.provider }}
            attachments={email.attachments}
            bodyHtml={email.bodyHtml}
          />
        )}
        {loadingBody ? (
          <p className="text-sm text-slate-500" role="status">
            Loading…
          </p>
        ) : body.kind === "html" ? (
          <EmailHtmlFrame
            html={body.content}
            senderAddress={email.fromAddress}
            title={`Message from ${email.fromName || email.fromAddress}`}
            attachments={email.attachments}
          />
        ) : body.kind === "empty" ? (
          <p className="text-sm text-slate-500 italic">No content available</p>
        ) : (
          <div className="text-sm leading-relaxed break-words whitespace-pre-wrap text-slate-800">
            {body.content}
          </div>
        )}
      </section>
    </>
  );
}

const OUTCOME_TEXT = {
  done: "Unsubscribed",
  failed: "Unsubscribe failed",
  manual: "Unsubscribe manually",
} as const;

/** The sender's last unsubscribe request, once it left 'processing'. */
function UnsubscribeOutcome({ senderAddress }: { senderAddress: string }) {
  const statuses = useQuery<UnsubscribeStatusList | null>({ queryKey: UNSUBSCRIBE_STATUS_KEY });
  const sender = senderAddress.toLowerCase();
  const status = statuses.data?.requests.find((r) => r.senderAddress === sender);
  if (!status || status.status === "processing") return null;
  const safeUrl = status.url && /^https?:\/\//i.test(status.url) ? status.url : null;
  return (
    <p className="mt-2 text-sm text-slate-700" role="status">
      <span className="font-medium">{OUTCOME_TEXT[status.status]}</span>
      {status.detail ? <span>: {status.detail}</span> : null}
      {status.status === "manual" && safeUrl ? (
        <>
          {" "}
          <a
            href={safeUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="font-medium text-brand-700 underline hover:text-brand-800"
          >
            Open the unsubscribe page
          </a>
        </>
      ) : null}
    </p>
  );
}
