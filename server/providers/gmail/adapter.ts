import type { Address, MailProviderClient } from "../mail-provider.ts";
import * as actions from "./actions.ts";
import { openAttachment } from "./attachments.ts";
import { listChanges } from "./changes.ts";
import { createGmailContext, type GmailClientOptions } from "./client.ts";
import * as drafts from "./drafts.ts";
import { getCalendarPart, getCursor, getMessage, getProfile, listMessages } from "./messages.ts";
import * as outgoing from "./send.ts";
import * as snoozedLabel from "./snoozed-label.ts";
import { getThread } from "./threads.ts";

export interface GmailProviderOptions extends GmailClientOptions {
  /** The account's own address and name, for the From header of what we send. */
  from: Address;
}

/** MailProviderClient over the Gmail REST API; see mapper.ts for how star and flag map to labels. */
export function createGmailProvider(options: GmailProviderOptions): MailProviderClient {
  const ctx = createGmailContext(options);
  return {
    kind: "gmail",
    getProfile: () => getProfile(ctx),
    getCursor: () => getCursor(ctx),
    listMessages: (opts) => listMessages(ctx, opts),
    getMessage: (id) => getMessage(ctx, id),
    // A Gmail id survives every label change: a message its id no longer finds is deleted.
    findMoved: async () => [],
    getCalendarPart: (id, maxBytes) => getCalendarPart(ctx, id, maxBytes),
    openAttachment: (id, at) => openAttachment(ctx, id, at),
    getThread: (threadId) => getThread(ctx, threadId),
    listChanges: (cursor) => listChanges(ctx, cursor),
    archive: (ids) => actions.archive(ctx, ids),
    unarchive: (ids) => actions.unarchive(ctx, ids),
    setRead: (ids, read) => actions.setRead(ctx, ids, read),
    setStarred: (ids, on) => actions.setStarred(ctx, ids, on),
    setFlagged: (ids, on) => actions.setFlagged(ctx, ids, on),
    trash: (ids) => actions.trash(ctx, ids),
    snooze: (ids) => snoozedLabel.snooze(ctx, ids),
    unsnooze: (ids) => snoozedLabel.unsnooze(ctx, ids),
    send: (message) => outgoing.send(ctx, options.from, message),
    findSent: (internetMessageId) => outgoing.findSent(ctx, internetMessageId),
    createDraft: (message) => outgoing.createDraft(ctx, options.from, message),
    saveDraft: (message, draftId, files) => drafts.saveDraft(ctx, options.from, message, draftId, files),
    listDrafts: (opts) => drafts.listDrafts(ctx, opts),
    getDraft: (draftId) => drafts.getDraft(ctx, draftId),
    deleteDraft: (draftId) => drafts.deleteDraft(ctx, draftId),
    sendDraft: (draftId) => drafts.sendDraft(ctx, draftId),
    // Gmail pushes to Pub/Sub: the notification URL and client state belong to the subscription.
    watch: () => outgoing.watch(ctx),
    stopWatch: () => outgoing.stopWatch(ctx),
  };
}
