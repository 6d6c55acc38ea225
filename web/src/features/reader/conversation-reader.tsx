import { useQueryClient } from "@tanstack/react-query";
import { Dialog } from "radix-ui";
import { useEffect, useRef, useState } from "react";
import type { Conversation } from "../../../../contract/conversations.ts";
import type { Email } from "../../../../contract/mail.ts";
import { readSecurity } from "../ai/ai-api.ts";
import { InsightsPanel } from "../ai/insights-panel.tsx";
import { SecurityBadge, SecurityVerdict } from "../ai/security-verdict.tsx";
import { AttachmentList } from "../attachments/attachment-list.tsx";
import { InvitationCard } from "../calendar/invitation-card.tsx";
import type { AnswerMode } from "../compose/compose-source.ts";
import { applyMessageChange, useConversationActions } from "../conversations/conversation-api.ts";
import { NoReplyMark } from "../followups/no-reply-mark.tsx";
import { formatListDate, senderName } from "../inbox/format.ts";
import { useBackgroundUnsubscribing } from "../mail-actions/unsubscribe-store.ts";
import { useEmailActions } from "../mail-actions/use-email-actions.ts";
import { SnoozeMenu } from "../snooze/snooze-menu.tsx";
import { AnswerButtons } from "./answer-buttons.tsx";
import { focusTarget, initiallyExpanded } from "./conversation-order.ts";
import { BTN_DANGER, BTN_SECONDARY } from "./dialog-classes.ts";
import { InboxZeroProgress } from "./inbox-zero-progress.tsx";
import { MessageBody } from "./message-body.tsx";
import { CloseButton, formatDate, type ReaderAction, StarIcon, UnsubscribeOutcome } from "./reader-parts.tsx";

/**
 * A conversation of several messages in the reader: oldest to newest, the person's own replies
 * included. Archive, delete, read and unread act on the whole conversation; star, flag and reply
 * on one message.
 */
export function ConversationContent({
  conversation,
  onReply,
  onDone,
}: {
  conversation: Conversation;
  onReply: (message: Email, mode: AnswerMode) => void;
  onDone: (action: ReaderAction, message: Email) => void;
}) {
  const conversations = useConversationActions();
  const { messages } = conversation;
  // Decided once per conversation, from its state as it opened (before it is marked read).
  const [expanded, setExpanded] = useState(() => initiallyExpanded(messages));
  const [target] = useState(() => focusTarget(messages));
  const listRef = useRef<HTMLOListElement>(null);
  const anyUnread = messages.some((m) => !m.isRead);
  const newest = messages.at(-1);

  useEffect(() => {
    if (!target) return;
    listRef.current
      ?.querySelector<HTMLElement>(`[data-message-id="${CSS.escape(target)}"]`)
      ?.scrollIntoView({ block: "nearest" });
  }, [target]);

  const toggle = (id: string) =>
    setExpanded((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <>
      <div className="border-b border-slate-200 px-4 pt-4 pb-3 sm:px-6">
        <InboxZeroProgress />
        <div className="flex items-start justify-between gap-4">
          <div className="flex min-w-0 flex-wrap items-start gap-2">
            <Dialog.Title className="min-w-0 text-lg font-semibold break-words text-slate-900">
              {conversation.subject || "(no subject)"}
            </Dialog.Title>
            <span className="mt-0.5 shrink-0 rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-700">
              {messages.length} messages
            </span>
            {anyUnread ? (
              <span className="mt-0.5 shrink-0 rounded-full bg-brand-600 px-2 py-0.5 text-xs font-semibold text-white">
                Unread
              </span>
            ) : null}
          </div>
          <CloseButton />
        </div>
        <div className="mt-3 flex flex-wrap gap-2" role="toolbar" aria-label="Conversation actions">
          <button
            type="button"
            className={BTN_SECONDARY}
            onClick={() => {
              void conversations.archive(conversation.id);
              if (newest) onDone("archive", newest);
            }}
          >
            Archive
          </button>
          <SnoozeMenu
            conversationId={conversation.id}
            onSnoozed={() => {
              if (newest) onDone("snooze", newest);
            }}
          />
          <button
            type="button"
            className={BTN_SECONDARY}
            onClick={() => {
              void conversations.setRead(conversation.id, anyUnread);
              if (newest) onDone(anyUnread ? "read" : "unread", newest);
            }}
          >
            {anyUnread ? "Mark as read" : "Mark as unread"}
          </button>
          <button
            type="button"
            className={BTN_DANGER}
            onClick={() => {
              void conversations.remove(conversation.id);
              if (newest) onDone("delete", newest);
            }}
          >
            Delete
          </button>
        </div>
      </div>
      {/* Focusable, so a keyboard can scroll a long conversation too. */}
      <section
        className="min-h-0 flex-1 overflow-y-auto px-2 py-3 focus-visible:outline-2 focus-visible:outline-brand-600 sm:px-4"
        aria-label="Conversation"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus (WCAG 2.1.1)
        tabIndex={0}
      >
        <ol ref={listRef} className="flex flex-col gap-2" aria-label="Messages">
          {messages.map((message) => (
            <li key={message.id} data-message-id={message.id}>
              {expanded.has(message.id) ? (
                <ExpandedMessage
                  message={message}
                  conversationId={conversation.id}
                  onCollapse={() => toggle(message.id)}
                  onReply={(mode) => onReply(message, mode)}
                  onDone={(action) => onDone(action, message)}
                />
              ) : (
                <CollapsedMessage message={message} onExpand={() => toggle(message.id)} />
              )}
            </li>
          ))}
        </ol>
      </section>
    </>
  );
}

function CollapsedMessage({ message, onExpand }: { message: Email; onExpand: () => void }) {
  return (
    <button
      type="button"
      aria-expanded={false}
      onClick={onExpand}
      className="flex w-full min-w-0 items-baseline gap-3 rounded-lg border border-slate-200 bg-slate-50 px-3 py-2 text-left text-sm hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600"
    >
      <span
        className={`max-w-[40%] shrink-0 truncate ${message.isRead ? "text-slate-800" : "font-semibold"}`}
      >
        {senderName(message)}
      </span>
      <span className="min-w-0 flex-1 truncate text-slate-500">{message.snippet}</span>
      <time className="shrink-0 text-xs text-slate-500" dateTime={message.date}>
        {formatListDate(message.date)}
      </time>
    </button>
  );
}

function ExpandedMessage({
  message,
  conversationId,
  onCollapse,
  onReply,
  onDone,
}: {
  message: Email;
  conversationId: string;
  onCollapse: () => void;
  onReply: (mode: AnswerMode) => void;
  onDone: (action: ReaderAction) => void;
}) {
  const queryClient = useQueryClient();
  const actions = useEmailActions();
  const unsubscribing = useBackgroundUnsubscribing(message.fromAddress);
  const security = readSecurity(message.aiAnalysis);
  const [insightsOpen, setInsightsOpen] = useState(false);
  const sender = senderName(message);

  /** A per-message change: shown in the conversation at once, put back if the server refuses. */
  const change = async (
    flags: { isStarred: boolean } | { isFlagged: boolean },
    run: () => Promise<boolean>,
  ) => {
    const snapshot = applyMessageChange(queryClient, conversationId, message.id, flags);
    if (!(await run())) for (const [key, data] of snapshot) queryClient.setQueryData(key, data);
  };

  return (
    <article aria-label={`Message from ${sender}`} className="rounded-lg border border-slate-200 bg-white">
      <div className="px-3 pt-2 pb-3 sm:px-4">
        <div className="flex items-start gap-2">
          <button
            type="button"
            aria-expanded={true}
            onClick={onCollapse}
            title="Collapse this message"
            className="flex min-w-0 flex-1 items-baseline gap-2 rounded text-left focus-visible:outline-2 focus-visible:outline-brand-600"
          >
            <span className="truncate font-semibold text-slate-900">{sender}</span>
            <time className="ml-auto shrink-0 text-xs text-slate-500" dateTime={message.date}>
              {formatListDate(message.date)}
            </time>
          </button>
          {message.isStarred ? (
            <span className="text-amber-500" role="img" aria-label="Starred">
              <StarIcon filled />
            </span>
          ) : null}
        </div>
        <div className="mt-1 flex flex-wrap gap-2 empty:hidden">
          {message.isRead ? null : (
            <span className="rounded-full bg-brand-600 px-2 py-0.5 text-xs font-semibold text-white">
              Unread
            </span>
          )}
          {message.isFlagged ? (
            <span className="rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-800">
              Flagged
            </span>
          ) : null}
          <NoReplyMark email={message} size="reader" />
          {message.pending ? (
            <span
              title="Your last change is not confirmed by the provider yet; it is checked again shortly"
              className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-700"
            >
              Pending
            </span>
          ) : null}
          {security ? <SecurityBadge scan={security} /> : null}
        </div>
        <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm">
          <dt className="text-slate-500">From</dt>
          <dd className="min-w-0 break-words text-slate-900">{message.from}</dd>
          <dt className="text-slate-500">To</dt>
          <dd className="min-w-0 break-words text-slate-900">{message.to || "—"}</dd>
          {message.cc ? (
            <>
              <dt className="text-slate-500">Cc</dt>
              <dd className="min-w-0 break-words text-slate-900">{message.cc}</dd>
            </>
          ) : null}
          <dt className="text-slate-500">Date</dt>
          <dd className="text-slate-900">
            <time dateTime={message.date}>{formatDate(message.date)}</time>
          </dd>
        </dl>
        <div
          className="mt-2 flex flex-wrap gap-2"
          role="toolbar"
          aria-label={`Actions for the message from ${sender}`}
        >
          <AnswerButtons onAnswer={onReply} />
          <button
            type="button"
            className={BTN_SECONDARY}
            aria-pressed={message.isStarred}
            onClick={() => {
              const isStarred = !message.isStarred;
              void change({ isStarred }, () => actions.setStarred(message, isStarred));
              onDone(isStarred ? "star" : "unstar");
            }}
          >
            <StarIcon filled={message.isStarred} />
            {message.isStarred ? "Unstar" : "Star"}
          </button>
          <button
            type="button"
            className={BTN_SECONDARY}
            aria-pressed={message.isFlagged}
            onClick={() => {
              const isFlagged = !message.isFlagged;
              void change({ isFlagged }, () => actions.setFlagged(message, isFlagged));
              onDone(isFlagged ? "flag" : "unflag");
            }}
          >
            {message.isFlagged ? "Unflag" : "Flag"}
          </button>
          <button
            type="button"
            className={BTN_SECONDARY}
            aria-haspopup="dialog"
            onClick={() => setInsightsOpen(true)}
          >
            AI Insights
          </button>
          {message.canUnsubscribe ? (
            <button
              type="button"
              className={BTN_SECONDARY}
              disabled={unsubscribing}
              aria-busy={unsubscribing || undefined}
              onClick={() => void actions.unsubscribe(message)}
            >
              {unsubscribing ? "Processing..." : "Unsubscribe"}
            </button>
          ) : null}
        </div>
        {message.canUnsubscribe && !unsubscribing ? (
          <UnsubscribeOutcome senderAddress={message.fromAddress} />
        ) : null}
        {security ? (
          <div className="mt-2">
            <SecurityVerdict scan={security} warnOnly />
          </div>
        ) : null}
      </div>
      <InsightsPanel email={message} open={insightsOpen} onOpenChange={setInsightsOpen} />
      <div className="border-t border-slate-100 px-3 py-3 sm:px-4">
        <InvitationCard emailId={message.id} risk={security?.verdict} />
        <AttachmentList
          source={{ emailId: message.id, provider: message.provider }}
          attachments={message.attachments}
          bodyHtml={message.bodyHtml}
        />
        <MessageBody message={message} />
      </div>
    </article>
  );
}
