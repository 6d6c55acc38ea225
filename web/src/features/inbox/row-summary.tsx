import type { Email } from "../../../../contract/mail.ts";
import { rowConversation } from "../conversations/conversation-api.ts";
import { senderName } from "./format.ts";

/** What a list row shows: a conversation's participants and state, or the one message's. */
export interface RowSummary {
  /** "Dana, me (3)" for a conversation, the sender for a message. */
  who: string;
  unread: boolean;
  hasAttachments: boolean;
}

function messageHasAttachments(email: Email): boolean {
  return email.hasAttachments;
}

export function rowSummary(email: Email): RowSummary {
  const conversation = rowConversation(email);
  if (conversation)
    return {
      // One message: its sender's whole name, as a message row shows it; several: the first
      // names of everyone in it ("Dana, me (3)").
      who:
        conversation.count > 1 && conversation.participants ? conversation.participants : senderName(email),
      unread: conversation.unread,
      hasAttachments: conversation.hasAttachments || messageHasAttachments(email),
    };
  return { who: senderName(email), unread: !email.isRead, hasAttachments: messageHasAttachments(email) };
}

/** The list's paperclip: a picture with its name for screen readers. */
export function PaperclipMark({ className = "h-3.5 w-3.5" }: { className?: string }) {
  return (
    <span className="shrink-0 text-slate-500" role="img" aria-label="Has attachments" title="Has attachments">
      <svg
        viewBox="0 0 24 24"
        className={className}
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
      >
        <path d="m21 11-8.6 8.6a5.5 5.5 0 0 1-7.8-7.8l8.6-8.6a3.7 3.7 0 0 1 5.2 5.2l-8.6 8.6a1.8 1.8 0 0 1-2.6-2.6l7.9-7.9" />
      </svg>
    </span>
  );
}
