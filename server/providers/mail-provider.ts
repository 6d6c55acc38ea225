import type { Readable } from "node:stream";
import type { MailProvider as ProviderKind } from "../../contract/auth.ts";

/**
 * The one interface sync and the mail API use for Gmail and Outlook, in OUR terms (inbox,
 * archive, read, star, flag, trash), not Gmail's labels or Graph's folders. One adapter per
 * provider implements it; one contract test suite runs against both (house style 6).
 */

export interface Address {
  name: string;
  address: string;
}

export interface AttachmentMeta {
  filename: string;
  mimeType: string;
  size: number;
  /** Our opaque id, stable for the message (a hash of ref): see attachmentIdFor. */
  id?: string;
  /** Where the provider keeps it: Gmail's partId, Graph's attachment id. */
  ref?: string;
  /** Gmail's body.attachmentId as fetched (it can change between fetches; ref finds it again). */
  fetchId?: string;
  /** Content-ID without angle brackets, or null. */
  contentId?: string | null;
  /** A part the HTML body shows through cid:, not a file of its own. */
  inline?: boolean;
}

/** Where a stored attachment lives at the provider (AttachmentMeta's ref and fetchId). */
export interface AttachmentLocation {
  /** Our id (AttachmentMeta.id): finds the attachment again where the provider's id changed. */
  id?: string | undefined;
  ref?: string | undefined;
  fetchId?: string | undefined;
}

/** An attachment's bytes as the provider sends them, not yet read. */
export interface AttachmentDownload {
  body: Readable;
  /** Bytes to come, when the provider said (Graph's Content-Length); null otherwise. */
  size: number | null;
}

/** A message as our sync stores it. Fields a provider cannot give are null/empty, never invented. */
export interface ProviderMessage {
  /** Gmail message id, or Graph message id (which changes when the message moves folders). */
  providerId: string;
  /** Gmail threadId or Graph conversationId. */
  threadId: string | null;
  /** RFC 5322 Message-ID, stable across Graph moves; used to re-key rows. */
  internetMessageId: string | null;
  from: Address;
  to: Address[];
  cc: Address[];
  replyTo: Address[];
  subject: string;
  snippet: string;
  bodyHtml: string | null;
  bodyText: string | null;
  /** When the message arrived (Gmail internalDate, Graph receivedDateTime). */
  receivedAt: Date;
  isRead: boolean;
  isStarred: boolean;
  isFlagged: boolean;
  /** In the inbox (Gmail INBOX label, Graph inbox folder). Archived = not in inbox and not trashed/spam. */
  inInbox: boolean;
  isTrashed: boolean;
  isSpam: boolean;
  isDraft: boolean;
  isSent: boolean;
  /** Gmail label ids, or Graph categories. */
  labels: string[];
  /** Gmail's CATEGORY_* tab or Graph's inferenceClassification/categories, lower-case (spec's microsoftCategory). */
  providerCategory: string | null;
  headers: {
    listUnsubscribe: string | null;
    listUnsubscribePost: string | null;
    authenticationResults: string | null;
    inReplyTo: string | null;
    references: string | null;
  };
  attachments: AttachmentMeta[];
}

export interface MessagePage {
  messages: ProviderMessage[];
  /** Absent on the last page. Opaque to callers. */
  nextPageToken?: string;
  /** The provider's estimate of all matching messages, for progress ("Syncing 1,234 of 6,046"). */
  totalEstimate?: number;
}

export interface ChangeBatch {
  /** Added or changed messages (full, as listed). */
  upserted: ProviderMessage[];
  /** Provider ids that were deleted or left the synced scope. */
  removed: string[];
  /** The cursor to store once this batch is applied. Cursors only move forward. */
  cursor: string;
  /** True while more changes are waiting: call listChanges again with `cursor`. */
  hasMore: boolean;
}

export interface OutgoingMessage {
  to: Address[];
  cc: Address[];
  bcc: Address[];
  subject: string;
  /** Plain text body. */
  body: string;
  /** Sanitized HTML sent beside `body` as multipart/alternative (issue 36). */
  html?: string;
  /** Files to attach, read only when the mail goes out (big ones are streamed). */
  attachments?: OutgoingAttachment[];
  /**
   * When replying or forwarding: thread and RFC 5322 ids so the provider threads it, and the
   * original's provider id and the mode, for Graph's createReply/createReplyAll/createForward.
   */
  replyTo?: {
    threadId: string | null;
    internetMessageId: string | null;
    references: string | null;
    providerId?: string;
    mode?: "reply" | "replyAll" | "forward";
  };
  /** An iMIP part (RFC 6047) sent beside the text: text/calendar with its iTIP method. */
  calendar?: { method: "REPLY"; ics: string };
  /**
   * The RFC 5322 Message-ID to send with (angle brackets included), chosen before sending so a
   * retry after a crash can ask the provider whether it went out (findSent): held mail, issue 36.
   */
  messageId?: string;
}

/** A file to send: described up front, its bytes opened when the provider call needs them. */
export interface OutgoingAttachment {
  fileName: string;
  contentType: string;
  size: number;
  open(): Promise<NodeJS.ReadableStream>;
}

/**
 * The files a draft save leaves on the draft (issue 36): files it already holds, by their
 * metadata as getDraft read them from `keepFrom` (the draft's current message), then new files.
 * Anything else the draft held is removed.
 */
export interface DraftFiles {
  keepFrom: string;
  keep: AttachmentMeta[];
  add: OutgoingAttachment[];
}

/** A draft in the account's Drafts folder (issue 36), whoever wrote it: us, Gmail or Outlook. */
export interface ProviderDraft {
  /** Gmail's draft id (not its message id, which changes on every update), or the Graph message id. */
  draftId: string;
  /** The draft's message as sync maps messages (recipients, subject, text and HTML bodies). */
  message: ProviderMessage;
  /** Bcc is only on drafts, so ProviderMessage does not carry it. */
  bcc: Address[];
}

export interface DraftPage {
  drafts: ProviderDraft[];
  /** Absent on the last page. */
  nextPageToken?: string;
}

export interface WatchResult {
  /** When the push channel stops unless renewed. */
  expiresAt: Date;
  /** Provider handle for renew/stop (Graph subscription id; Gmail has none). */
  subscriptionId?: string;
}

/** The most messages getThread reads of one thread (a sender can make a thread of thousands). */
export const THREAD_MESSAGES_MAX = 500;

/** Thrown by listChanges when the provider no longer knows the cursor (Gmail 404, Graph 410). */
export class CursorExpiredError extends Error {
  override name = "CursorExpiredError";
  readonly kind = "permanent" as const;
}

export interface MailProviderClient {
  readonly kind: ProviderKind;
  /** The mailbox address and counts of the inbox as the provider reports them. */
  getProfile(): Promise<{ email: string; inboxTotal: number; inboxUnread: number }>;
  /** A cursor for "changes from now on"; taken BEFORE an initial sync so nothing slips between. */
  getCursor(): Promise<string>;
  /** Inbox messages newest first, plus (when `since` is given) anything received since then. */
  listMessages(opts: { pageToken?: string; pageSize: number; since?: Date }): Promise<MessagePage>;
  getMessage(providerId: string): Promise<ProviderMessage | null>;
  /**
   * Where a move took messages their old id no longer finds. Graph gives a moved message a new
   * id, so Outlook lists every message carrying this RFC 5322 Message-ID (a sent copy and its
   * received copy share one); Gmail's ids never change, so its adapter answers [] unasked.
   */
  findMoved(internetMessageId: string): Promise<ProviderMessage[]>;
  /**
   * The text of the message's first invitation part (text/calendar, application/ics or a .ics
   * file), or null when it has none, is gone, or the part is over `maxBytes`.
   */
  getCalendarPart(providerId: string, maxBytes: number): Promise<string | null>;
  /**
   * Streams one attachment's bytes from the provider (Gmail attachments.get decoded as it
   * arrives, Graph `$value`). Throws a ProviderRequestError with status 404 when the message or
   * the attachment is gone.
   */
  openAttachment(providerId: string, at: AttachmentLocation): Promise<AttachmentDownload>;
  /**
   * Every message of a thread (Gmail threadId, Graph conversationId), whatever its folder or
   * label (sent, archived, trash and spam included: callers pick), oldest first; [] when the
   * provider knows no such thread. At most THREAD_MESSAGES_MAX messages.
   */
  getThread(threadId: string): Promise<ProviderMessage[]>;
  /** Changes after `cursor`. Throws CursorExpiredError when a full resync is needed. */
  listChanges(cursor: string): Promise<ChangeBatch>;
  /** Returns new ids where the provider changes them (Graph move); same id otherwise. */
  archive(providerIds: string[]): Promise<Map<string, string>>;
  unarchive(providerIds: string[]): Promise<Map<string, string>>;
  setRead(providerIds: string[], read: boolean): Promise<void>;
  setStarred(providerIds: string[], starred: boolean): Promise<void>;
  setFlagged(providerIds: string[], flagged: boolean): Promise<void>;
  /**
   * Snooze (issue 37), which neither API has: out of the inbox into "Snoozed" (Gmail: INBOX off
   * and a user label of that name on; Outlook: a mail folder of that name), made if missing.
   * Answers old id -> new id (Graph's move renames) for the messages done; a message the
   * provider no longer has (deleted meanwhile) is left out of the answer.
   */
  snooze(providerIds: string[]): Promise<Map<string, string>>;
  /** Back to the inbox out of "Snoozed"; answers like snooze. */
  unsnooze(providerIds: string[]): Promise<Map<string, string>>;
  /** Moves to trash/deleted items; returns new ids like archive. */
  trash(providerIds: string[]): Promise<Map<string, string>>;
  /** Sends from this account; returns the sent message's provider id when the provider tells it. */
  send(message: OutgoingMessage): Promise<{ providerId: string | null }>;
  /**
   * Whether a message with this RFC 5322 Message-ID is in the mailbox (sent items included):
   * Gmail search rfc822msgid:, Graph $filter on internetMessageId. Held mail asks before a retry.
   */
  findSent(internetMessageId: string): Promise<boolean>;
  /** Saves a draft in the account (AI auto-drafts). */
  createDraft(message: OutgoingMessage): Promise<{ providerId: string }>;
  /**
   * Compose's autosave (issue 36): creates a draft, or replaces the content of `draftId`. A draft
   * the provider no longer knows (deleted in Gmail/Outlook meanwhile) is created anew, so typed
   * text is never lost; the answer is the id to save under next time. With `files`, the draft
   * holds exactly those afterwards, and the answer lists them: the kept ones in order, then the
   * added ones (Gmail rewrites the whole message, so its ids change; Graph's stay).
   */
  saveDraft(
    message: OutgoingMessage,
    draftId?: string,
    files?: DraftFiles,
  ): Promise<{ draftId: string; attachments?: AttachmentMeta[] }>;
  /** Drafts newest first, `pageSize` at most per page. */
  listDrafts(opts: { pageToken?: string; pageSize: number }): Promise<DraftPage>;
  /** One draft with its bodies; null when the provider does not know it. */
  getDraft(draftId: string): Promise<ProviderDraft | null>;
  /** Deletes a draft; one already gone counts as deleted. */
  deleteDraft(draftId: string): Promise<void>;
  /** Sends a draft as it is stored at the provider (Gmail drafts.send, Graph send); it leaves Drafts. */
  sendDraft(draftId: string): Promise<{ providerId: string | null }>;
  /**
   * Starts or renews push notifications to our webhook. Pass the current subscription to renew
   * it in place (Graph PATCH); without one, or when the provider forgot it, a new one is made.
   */
  watch(
    notificationUrl: string,
    clientState: string,
    existing?: { subscriptionId?: string },
  ): Promise<WatchResult>;
  stopWatch(subscriptionId?: string): Promise<void>;
}
