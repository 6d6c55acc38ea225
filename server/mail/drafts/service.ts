import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import type { ComposeAttachmentRef } from "../../../contract/compose.ts";
import type {
  Draft,
  DraftAttachment,
  DraftList,
  DraftSummary,
  SavedDraft,
  saveDraftRequestSchema,
} from "../../../contract/drafts.ts";
import type { Db } from "../../db/client.ts";
import { emails } from "../../db/schema.ts";
import { DomainError } from "../../http/errors.ts";
import type { Clock } from "../../lib/clock.ts";
import { withProviderDeadline } from "../../providers/http/deadline.ts";
import type {
  AttachmentMeta,
  DraftFiles,
  MailProviderClient,
  OutgoingMessage,
  ProviderDraft,
} from "../../providers/mail-provider.ts";
import type { ProviderClientFactory } from "../../sync/types.ts";
import { type AccountSummary, accountsOf, syncAccountOf } from "../accounts.ts";
import type { MailDeps } from "../deps.ts";
import { DEFAULT_WRITE_TIMEOUT_MS } from "../email-actions.ts";
import { providerFailure } from "../provider-failure.ts";
import type { OutgoingFiles, ResolvedFiles } from "../uploads/outgoing-files.ts";
import { draftKey, fitsProvider, noSuchDraft, parseDraftKey } from "./draft-id.ts";
import { draftRecipients, recipientsText } from "./recipients-text.ts";

export type SaveDraftInput = z.output<typeof saveDraftRequestSchema>;

/** Drafts read per account for the list: Gmail reads each one (drafts.get), so a page stays small. */
export const DRAFTS_PER_ACCOUNT = 25;

/**
 * Drafts at the provider (issue 36): compose's autosave (create, then update in place), the
 * Drafts list across accounts (drafts written in Gmail or Outlook included), reopening one, and
 * removing one when its mail has been sent. Nothing is stored on our side: the provider's Drafts
 * folder is the one copy, so Gmail, Outlook and Mailwise show the same drafts.
 */
export function createDraftService(deps: {
  db: Db;
  clock: Clock;
  providerClient: ProviderClientFactory;
  log: MailDeps["log"];
  /** PROVIDER_WRITE_TIMEOUT_MS: the longest a draft call holds up the person's request. */
  writeTimeoutMs?: number;
  /** Uploads and a forward's originals put on a draft; without it, a save naming files is refused. */
  outgoingFiles?: OutgoingFiles;
}) {
  const { db } = deps;
  const timeoutMs = deps.writeTimeoutMs ?? DEFAULT_WRITE_TIMEOUT_MS;

  /**
   * One provider call bounded by the write timeout; a late answer is given up on (no retries
   * start after it) and reads as provider_timeout, other failures as providerFailure words.
   */
  async function call<T>(account: AccountSummary, what: string, work: (c: MailProviderClient) => Promise<T>) {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      return await withProviderDeadline(controller.signal, () => work(client(account)));
    } catch (err) {
      if (controller.signal.aborted)
        throw new DomainError(
          "provider_timeout",
          `${kind(account) === "outlook" ? "Outlook" : "Gmail"} did not answer in time while ${what}. Try again in a moment.`,
        );
      throw providerFailure(err, kind(account), what);
    } finally {
      clearTimeout(timer);
    }
  }
  const client = (account: AccountSummary) => deps.providerClient(syncAccountOf(account));
  const kind = (account: AccountSummary) => (account.provider === "outlook" ? "outlook" : "gmail");

  /** The account of one of our draft ids, if it is this person's; 404 otherwise. */
  async function owned(userId: string, id: string) {
    const key = parseDraftKey(id);
    const account = (await accountsOf(db, userId)).find((a) => a.id === key.accountId);
    if (!account || !fitsProvider(account.provider, key.providerDraftId)) throw noSuchDraft();
    return { account, providerDraftId: key.providerDraftId };
  }

  async function replyContext(userId: string, input: SaveDraftInput, account: AccountSummary) {
    if (!input.inReplyToId) return undefined;
    const [row] = await db
      .select({
        accountId: emails.accountId,
        providerId: emails.providerId,
        threadId: emails.threadId,
        internetMessageId: emails.internetMessageId,
        referencesHeader: emails.referencesHeader,
      })
      .from(emails)
      .where(and(eq(emails.userId, userId), eq(emails.id, input.inReplyToId)));
    if (!row) throw new DomainError("not_found", "The email you are replying to does not exist.");
    const sameAccount = row.accountId === account.id;
    return {
      // A thread id or provider id means nothing in another mailbox; the Message-ID headers still thread it.
      threadId: sameAccount ? row.threadId : null,
      internetMessageId: row.internetMessageId,
      references: row.referencesHeader,
      ...(sameAccount ? { providerId: row.providerId } : {}),
      mode: input.mode === "replyAll" || input.mode === "forward" ? input.mode : ("reply" as const),
    };
  }

  function summary(account: AccountSummary, draft: ProviderDraft): DraftSummary {
    return {
      id: draftKey(account.id, draft.draftId),
      accountId: account.id,
      accountEmail: account.email,
      to: draft.message.to.map(({ name, address }) => ({ name, address })),
      subject: draft.message.subject,
      snippet: draft.message.snippet,
      fileCount: draft.message.attachments.filter((a) => !a.inline).length,
      updatedAt: draft.message.receivedAt.toISOString(),
    };
  }

  /** Best effort: a draft left behind is logged, never an error for the person. */
  async function discard(account: AccountSummary, providerDraftId: string): Promise<void> {
    try {
      await client(account).deleteDraft(providerDraftId);
    } catch (err) {
      deps.log.warn({ err, accountId: account.id }, "a draft was not removed at the provider");
    }
  }

  /** The draft's files as compose shows them (inline images of its HTML are not files). */
  const filesOf = (metas: readonly AttachmentMeta[]): DraftAttachment[] =>
    metas
      .filter((a) => !a.inline && a.id)
      .map((a) => ({
        attachmentId: a.id ?? "",
        fileName: a.filename,
        contentType: a.mimeType,
        size: a.size,
      }));

  const goneFile = () =>
    new DomainError(
      "conflict",
      "A file of this draft is no longer on it. Close the draft and open it again.",
    );

  /**
   * What a save with `refs` leaves on the draft: files of the draft kept (same account) and new
   * ones (uploads, a forward's originals; all of them when the draft moves to another account).
   */
  async function draftFiles(
    userId: string,
    account: AccountSummary,
    refs: readonly ComposeAttachmentRef[],
    previous: { accountId: string; providerDraftId: string; id: string } | undefined,
  ): Promise<{ files: DraftFiles; resolved: ResolvedFiles; order: ("keep" | "add")[] }> {
    if (!deps.outgoingFiles) throw new DomainError("bad_request", "Files cannot be saved on drafts here.");
    const provider = kind(account);
    const sameAccount = previous?.accountId === account.id;
    const kept = sameAccount ? refs.flatMap((r) => (r.kind === "draft" ? [r] : [])) : [];
    const added = sameAccount ? refs.filter((r) => r.kind !== "draft") : refs;
    let keep: AttachmentMeta[] = [];
    let keepFrom = "";
    if (kept.length > 0 && previous) {
      const current = await call(account, "reading the draft", (c) => c.getDraft(previous.providerDraftId));
      if (!current) throw goneFile();
      keepFrom = current.message.providerId;
      keep = kept.map((ref) => {
        const meta = current.message.attachments.find((a) => a.id === ref.attachmentId && !a.inline);
        if (!meta) throw goneFile();
        return meta;
      });
    }
    const resolved = await deps.outgoingFiles.resolve(userId, provider, added, previous?.id);
    return {
      files: { keepFrom, keep, add: resolved.attachments },
      resolved,
      order: refs.map((r) => (sameAccount && r.kind === "draft" ? "keep" : "add")),
    };
  }

  return {
    /** A file of one of the person's drafts, read from the provider (a send or a save carries it on). */
    async openFile(userId: string, id: string, attachmentId: string) {
      const { account, providerDraftId } = await owned(userId, id);
      const draft = await call(account, "reading the draft", (c) => c.getDraft(providerDraftId));
      const meta = draft?.message.attachments.find((a) => a.id === attachmentId && !a.inline);
      if (!draft || !meta) throw goneFile();
      const download = await call(account, "reading a file of the draft", (c) =>
        c.openAttachment(draft.message.providerId, { id: meta.id, ref: meta.ref, fetchId: meta.fetchId }),
      );
      return { body: download.body, size: download.size, filename: meta.filename, mimeType: meta.mimeType };
    },

    async save(userId: string, input: SaveDraftInput): Promise<SavedDraft> {
      const accounts = await accountsOf(db, userId);
      const previous = input.draftId ? parseDraftKey(input.draftId) : undefined;
      const previousAccount = previous && accounts.find((a) => a.id === previous.accountId);
      if (previous && (!previousAccount || !fitsProvider(previousAccount.provider, previous.providerDraftId)))
        throw noSuchDraft();
      const wanted = input.accountId ?? previous?.accountId;
      const account = wanted
        ? accounts.find((a) => a.id === wanted)
        : (accounts.find((a) => a.status === "active") ?? accounts[0]);
      if (!account) {
        if (wanted) throw new DomainError("not_found", "No such account.");
        throw new DomainError("conflict", "Connect a mail account to save drafts.");
      }
      const to = draftRecipients(input.to);
      const cc = draftRecipients(input.cc);
      const bcc = draftRecipients(input.bcc);
      const empty =
        to.addresses.length + cc.addresses.length + bcc.addresses.length === 0 &&
        input.subject.trim() === "" &&
        input.body.trim() === "" &&
        (input.html ?? "").trim() === "" &&
        (input.attachments ?? []).length === 0;
      if (empty) throw new DomainError("validation_failed", "An empty draft is not saved.");
      const message: OutgoingMessage = {
        to: to.addresses,
        cc: cc.addresses,
        bcc: bcc.addresses,
        subject: input.subject,
        body: input.body,
        ...(input.html !== undefined ? { html: input.html } : {}),
      };
      const replyTo = await replyContext(userId, input, account);
      if (replyTo) message.replyTo = replyTo;
      const sameAccount = previous?.accountId === account.id;
      let refs = input.attachments;
      if (refs === undefined && sameAccount && previous && kind(account) === "gmail") {
        // Gmail rewrites the whole message: a save that does not name files keeps the draft's.
        const current = await call(account, "reading the draft", (c) => c.getDraft(previous.providerDraftId));
        const held = filesOf(current?.message.attachments ?? []);
        if (held.length > 0)
          refs = held.map((f) => ({ kind: "draft" as const, attachmentId: f.attachmentId }));
      }
      // A first save without files has nothing to put on the draft or take off it.
      const withFiles =
        refs === undefined || (refs.length === 0 && !previous)
          ? undefined
          : await draftFiles(
              userId,
              account,
              refs,
              previous && input.draftId ? { ...previous, id: input.draftId } : undefined,
            );
      let saved: Awaited<ReturnType<MailProviderClient["saveDraft"]>>;
      try {
        saved = await call(account, "saving the draft", (c) =>
          c.saveDraft(message, sameAccount ? previous?.providerDraftId : undefined, withFiles?.files),
        );
      } finally {
        await withFiles?.resolved.release();
      }
      // On the draft now: the uploads it took are not needed any more (compose names them as draft files).
      await withFiles?.resolved.sent();
      if (previous && !sameAccount) {
        // The From account changed: the draft moves with it, the old account's copy goes.
        const old = accounts.find((a) => a.id === previous.accountId);
        if (old) await discard(old, previous.providerDraftId);
      }
      return {
        draftId: draftKey(account.id, saved.draftId),
        accountId: account.id,
        savedAt: deps.clock.now().toISOString(),
        skippedRecipients: [...to.skipped, ...cc.skipped, ...bcc.skipped],
        ...(withFiles
          ? { attachments: inRequestOrder(withFiles.order, filesOf(saved.attachments ?? [])) }
          : {}),
      };
    },

    /** Every account's drafts newest first; an account that fails is named, the others still list. */
    async list(userId: string): Promise<DraftList> {
      const accounts = await accountsOf(db, userId);
      const answers = await Promise.all(
        accounts.map(async (account) => {
          try {
            const page = await call(account, "listing drafts", (c) =>
              c.listDrafts({ pageSize: DRAFTS_PER_ACCOUNT }),
            );
            return { account, drafts: page.drafts, error: null };
          } catch (err) {
            const error =
              err instanceof DomainError ? err : providerFailure(err, kind(account), "listing drafts");
            return { account, drafts: [], error };
          }
        }),
      );
      const drafts = answers
        .flatMap(({ account, drafts: list }) => list.map((d) => summary(account, d)))
        .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
      const failedAccounts = answers.flatMap(({ account, error }) =>
        error ? [{ accountId: account.id, email: account.email, message: error.message }] : [],
      );
      return { drafts, failedAccounts };
    },

    async get(userId: string, id: string): Promise<Draft> {
      const { account, providerDraftId } = await owned(userId, id);
      const draft = await call(account, "opening the draft", (c) => c.getDraft(providerDraftId));
      if (!draft) throw noSuchDraft();
      const { message } = draft;
      return {
        id: draftKey(account.id, draft.draftId),
        accountId: account.id,
        to: recipientsText(message.to),
        cc: recipientsText(message.cc),
        bcc: recipientsText(draft.bcc),
        subject: message.subject,
        body: message.bodyText ?? "",
        html: message.bodyHtml,
        attachments: filesOf(message.attachments),
        updatedAt: message.receivedAt.toISOString(),
      };
    },

    async remove(userId: string, id: string): Promise<{ success: true }> {
      const { account, providerDraftId } = await owned(userId, id);
      await call(account, "deleting the draft", (c) => c.deleteDraft(providerDraftId));
      return { success: true };
    },

    /**
     * After a send went out: the draft it was written in goes. Never throws, since the mail is
     * sent and an error now would invite a second send; a draft left behind is only logged.
     */
    async discardAfterSend(userId: string, id: string): Promise<void> {
      try {
        const { account, providerDraftId } = await owned(userId, id);
        await discard(account, providerDraftId);
      } catch (err) {
        deps.log.warn({ err }, "the draft of a sent mail was not removed");
      }
    },
  };
}

export type DraftService = ReturnType<typeof createDraftService>;

/**
 * The saved draft's files (kept ones first, then added ones, as the adapters answer) put back in
 * the order of the request's refs, so compose can swap each ref for the draft's file.
 */
function inRequestOrder(order: readonly ("keep" | "add")[], after: DraftAttachment[]): DraftAttachment[] {
  const keptCount = order.filter((o) => o === "keep").length;
  let kept = 0;
  let added = keptCount;
  return order.flatMap((o) => {
    const file = o === "keep" ? after[kept++] : after[added++];
    return file ? [file] : [];
  });
}
