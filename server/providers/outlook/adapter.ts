import type { MailProviderClient } from "../mail-provider.ts";
import * as actions from "./actions.ts";
import { openAttachment } from "./attachments.ts";
import { getCursor, listChanges } from "./changes.ts";
import { createOutlookContext, type OutlookClientOptions } from "./client.ts";
import { getConversation } from "./conversation.ts";
import * as drafts from "./drafts.ts";
import {
  findByInternetMessageId,
  getCalendarPart,
  getMessage,
  getProfile,
  listMessages,
} from "./messages.ts";
import * as outgoing from "./send.ts";
import * as snoozedFolder from "./snoozed-folder.ts";

/** MailProviderClient over Microsoft Graph; see mapper.ts for the star/flag mapping. */
export function createOutlookProvider(options: OutlookClientOptions): MailProviderClient {
  const ctx = createOutlookContext(options);
  return {
    kind: "outlook",
    getProfile: () => getProfile(ctx),
    getCursor: () => getCursor(ctx),
    listMessages: (opts) => listMessages(ctx, opts),
    getMessage: (id) => getMessage(ctx, id),
    findMoved: (internetMessageId) => findByInternetMessageId(ctx, internetMessageId),
    getCalendarPart: (id, maxBytes) => getCalendarPart(ctx, id, maxBytes),
    openAttachment: (id, at) => openAttachment(ctx, id, at),
    getThread: (conversationId) => getConversation(ctx, conversationId),
    listChanges: (cursor) => listChanges(ctx, cursor),
    archive: (ids) => actions.moveTo(ctx, ids, "archive"),
    unarchive: (ids) => actions.moveTo(ctx, ids, "inbox"),
    setRead: (ids, read) => actions.setRead(ctx, ids, read),
    setStarred: (ids, on) => actions.setStarred(ctx, ids, on),
    setFlagged: (ids, on) => actions.setFlagged(ctx, ids, on),
    trash: (ids) => actions.moveTo(ctx, ids, "deleteditems"),
    snooze: (ids) => snoozedFolder.snooze(ctx, options.accountKey, ids),
    unsnooze: (ids) => snoozedFolder.unsnooze(ctx, ids),
    send: (message) => outgoing.send(ctx, message),
    findSent: async (internetMessageId) => (await findByInternetMessageId(ctx, internetMessageId)).length > 0,
    createDraft: (message) => outgoing.createDraft(ctx, message),
    saveDraft: (message, draftId, files) => drafts.saveDraft(ctx, message, draftId, files),
    listDrafts: (opts) => drafts.listDrafts(ctx, opts),
    getDraft: (draftId) => drafts.getDraft(ctx, draftId),
    deleteDraft: (draftId) => drafts.deleteDraft(ctx, draftId),
    sendDraft: (draftId) => drafts.sendDraft(ctx, draftId),
    watch: (url, clientState, existing) => outgoing.watch(ctx, url, clientState, existing?.subscriptionId),
    stopWatch: (subscriptionId) => outgoing.stopWatch(ctx, subscriptionId),
  };
}
