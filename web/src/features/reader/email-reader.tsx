import { useQueryClient } from "@tanstack/react-query";
import { Dialog } from "radix-ui";
import { useEffect, useMemo, useRef, useState } from "react";
import type { Email } from "../../../../contract/mail.ts";
import { DialogRoot } from "../../components/ui/dialog-root.tsx";
import { readSecurity } from "../ai/ai-api.ts";
import { InsightsPanel } from "../ai/insights-panel.tsx";
import { SecurityBadge, SecurityVerdict } from "../ai/security-verdict.tsx";
import { AttachmentList } from "../attachments/attachment-list.tsx";
import { InvitationCard } from "../calendar/invitation-card.tsx";
import type { AnswerMode } from "../compose/compose-source.ts";
import {
  cachedConversationCount,
  useConversation,
  useConversationActions,
  useConversationView,
} from "../conversations/conversation-api.ts";
import { useBackgroundUnsubscribing } from "../mail-actions/unsubscribe-store.ts";
import { useEmailActions } from "../mail-actions/use-email-actions.ts";
import { EmailHtmlFrame } from "../mail-html/email-html-frame.tsx";
import { SnoozeMenu } from "../snooze/snooze-menu.tsx";
import { ResurfacedMark } from "../snooze/snoozed-card.tsx";
import { AnswerButtons } from "./answer-buttons.tsx";
import { readerBody } from "./body.ts";
import { ConversationContent } from "./conversation-reader.tsx";
import { BTN_DANGER, BTN_SECONDARY, OVERLAY, SHEET_CONTENT } from "./dialog-classes.ts";
import { InboxZeroProgress } from "./inbox-zero-progress.tsx";
import { CloseButton, formatDate, type ReaderAction, StarIcon, UnsubscribeOutcome } from "./reader-parts.tsx";
import { useEmailDetail } from "./use-email-detail.ts";

export type { ReaderAction } from "./reader-parts.tsx";

export interface EmailReaderProps {
  emailId: string | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Reply, Reply all, Forward: the parent opens compose with this email; the reader closes itself. */
  onReply: (email: Email, mode: AnswerMode) => void;
  /** After an action succeeds on the screen (optimistically). */
  onAction?: (action: ReaderAction, email: Email) => void;
}

/**
 * The email reader dialog (spec section 2). Opening an unread email marks it read. With the
 * "Conversation view" setting on, an email of a conversation of several messages shows the whole
 * conversation (ConversationContent), and opening it marks the conversation read.
 */
export function EmailReader({ emailId, open, onOpenChange, onReply, onAction }: EmailReaderProps) {
  const detail = useEmailDetail(open ? emailId : null);
  const email = detail.data;
  const actions = useEmailActions();
  const conversationActions = useConversationActions();
  const conversationView = useConversationView();
  const conversation = useConversation(open && conversationView && email ? email.conversationId : null);
  const thread = conversation.data && conversation.data.messages.length > 1 ? conversation.data : null;
  // The list row says how many messages its conversation holds before the conversation loads.
  const queryClient = useQueryClient();
  const conversationId = email?.conversationId ?? null;
  const knownThread = useMemo(
    () =>
      conversationView && conversationId !== null && cachedConversationCount(queryClient, conversationId) > 1,
    [conversationView, conversationId, queryClient],
  );
  const markedRead = useRef<string | null>(null);
  const markedConversation = useRef<string | null>(null);

  useEffect(() => {
    if (!open) {
      markedRead.current = null;
      return;
    }
    // The list's copy, shown while the details load, is enough: waiting for the details missed an
    // email the person moved past before they came (j right after opening it). A conversation
    // is marked read as a whole below, once its messages are known.
    if (!email || knownThread || email.isRead || markedRead.current === email.id) return;
    markedRead.current = email.id;
    void actions.setRead(email, true);
  }, [open, email, knownThread, actions]);

  useEffect(() => {
    if (!open) {
      markedConversation.current = null;
      return;
    }
    if (!thread || markedConversation.current === thread.id) return;
    markedConversation.current = thread.id;
    if (thread.messages.some((m) => !m.isRead)) void conversationActions.setRead(thread.id, true);
  }, [open, thread, conversationActions]);

  const close = (action: ReaderAction) => action === "archive" || action === "delete" || action === "snooze";

  return (
    <DialogRoot open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className={OVERLAY} />
        <Dialog.Content className={`${SHEET_CONTENT} sm:max-w-3xl`} aria-describedby={undefined}>
          {thread ? (
            <ConversationContent
              key={thread.id}
              conversation={thread}
              onReply={(message, mode) => {
                onReply(message, mode);
                onOpenChange(false);
              }}
              onDone={(action, message) => {
                onAction?.(action, message);
                if (close(action)) onOpenChange(false);
              }}
            />
          ) : email && knownThread && conversation.isPending ? (
            <ReaderPlaceholder title={email.subject || "(no subject)"} text="Loading the conversation…" />
          ) : email ? (
            <ReaderContent
              email={email}
              loadingBody={detail.isPlaceholderData}
              onReply={(mode) => {
                onReply(email, mode);
                onOpenChange(false);
              }}
              onDone={(action) => {
                onAction?.(action, email);
                if (close(action)) onOpenChange(false);
              }}
            />
          ) : detail.isError ? (
            <ReaderPlaceholder
              title="Email unavailable"
              text="This email could not be loaded. It may have been deleted."
              error
            />
          ) : (
            <ReaderPlaceholder title="Loading email…" text="Loading…" />
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </DialogRoot>
  );
}

function ReaderPlaceholder({ title, text, error = false }: { title: string; text: string; error?: boolean }) {
  return (
    <div className="flex flex-1 flex-col p-6">
      <div className="flex items-start justify-between gap-4">
        <Dialog.Title className="text-lg font-semibold text-slate-900">{title}</Dialog.Title>
        <CloseButton />
      </div>
      <p className="mt-4 text-sm text-slate-600" role={error ? "alert" : "status"}>
        {text}
      </p>
    </div>
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
  onReply: (mode: AnswerMode) => void;
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
            {email.resurfacedAt && email.resurfaceReason ? (
              <span className="mt-0.5">
                <ResurfacedMark at={email.resurfacedAt} reason={email.resurfaceReason} />
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
          <AnswerButtons onAnswer={onReply} disabled={loadingBody} />
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
          <SnoozeMenu conversationId={email.conversationId} onSnoozed={() => onDone("snooze")} />
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
