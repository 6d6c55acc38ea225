import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import type { sendEmailRequestSchema } from "../../contract/mail.ts";
import type { Db } from "../db/client.ts";
import { emails } from "../db/schema.ts";
import type { EventBus } from "../events.ts";
import { DomainError } from "../http/errors.ts";
import type { OutgoingMessage } from "../providers/mail-provider.ts";
import type { ProviderClientFactory } from "../sync/types.ts";
import type { AccountSummary } from "./accounts.ts";
import { accountsOf, syncAccountOf } from "./accounts.ts";
import { checkRecipientCount, checkSubject } from "./compose-checks.ts";
import type { DraftService } from "./drafts/service.ts";
import { sanitizeOutgoingHtml } from "./outgoing-html.ts";
import { providerFailure } from "./provider-failure.ts";
import { parseRecipients } from "./recipients.ts";
import type { OutgoingFiles } from "./uploads/outgoing-files.ts";

export type SendRequest = z.output<typeof sendEmailRequestSchema>;

/** Spec section 5's wording, so the client can show it as it is. */
export const MISSING_INFORMATION = "Missing information: Please fill in recipient, subject, and message";

/** Validates the compose form; errors name each bad field. */
function validate(request: SendRequest): Pick<OutgoingMessage, "to" | "cc" | "bcc" | "subject" | "body"> {
  const fields: Record<string, string> = {};
  const missing = (["to", "subject", "body"] as const).filter((f) => request[f].trim() === "");
  for (const f of missing) fields[f] = "Required";
  const lists = { to: request.to, cc: request.cc, bcc: request.bcc };
  const parsed: Record<keyof typeof lists, OutgoingMessage["to"]> = { to: [], cc: [], bcc: [] };
  for (const key of ["to", "cc", "bcc"] as const) {
    if (fields[key]) continue;
    const result = parseRecipients(lists[key]);
    if (!result.ok) fields[key] = `"${result.bad}" is not a valid email address`;
    else if (key === "to" && result.addresses.length === 0) {
      // Only separators (", ;") is no recipient at all.
      fields.to = "Required";
      missing.push("to");
    } else parsed[key] = result.addresses;
  }
  if (Object.keys(fields).length > 0) {
    const message = missing.length > 0 ? MISSING_INFORMATION : `Invalid ${Object.keys(fields).join(", ")}`;
    throw new DomainError("validation_failed", message, fields);
  }
  checkSubject(request.subject.trim());
  checkRecipientCount(parsed);
  return { ...parsed, subject: request.subject.trim(), body: request.body };
}

/** POST /api/emails/send: from the chosen account, threaded when replying. */
export function createMailSender(deps: {
  db: Db;
  events: EventBus;
  providerClient: ProviderClientFactory;
  /** Resolves `attachments` refs (issue 36); without it a send with attachments is refused. */
  outgoingFiles?: OutgoingFiles;
  /** Removes the draft a sent mail was written in (issue 36); never throws. */
  drafts?: Pick<DraftService, "discardAfterSend">;
}) {
  const { db } = deps;

  async function original(userId: string, id: string) {
    const [row] = await db
      .select({
        accountId: emails.accountId,
        providerId: emails.providerId,
        threadId: emails.threadId,
        internetMessageId: emails.internetMessageId,
        referencesHeader: emails.referencesHeader,
      })
      .from(emails)
      .where(and(eq(emails.userId, userId), eq(emails.id, id)));
    if (!row) throw new DomainError("not_found", "The email you are replying to does not exist.");
    return row;
  }

  function chooseAccount(accounts: AccountSummary[], accountId: string | undefined): AccountSummary {
    if (accountId) {
      const chosen = accounts.find((a) => a.id === accountId);
      if (!chosen) throw new DomainError("not_found", "No such account.");
      return chosen;
    }
    const first = accounts.find((a) => a.status === "active") ?? accounts[0];
    if (!first) throw new DomainError("conflict", "Connect a mail account to send email.");
    return first;
  }

  /** The account a request sends from (its own, the replied-to mail's, else the first). */
  async function sendingAccount(userId: string, request: SendRequest): Promise<AccountSummary> {
    const replyingTo = request.inReplyToId ? await original(userId, request.inReplyToId) : undefined;
    return chooseAccount(await accountsOf(db, userId), request.accountId ?? replyingTo?.accountId);
  }

  return {
    /**
     * Everything send() would refuse before calling the provider, refused now: held mail
     * (server/mail/outbox/) answers bad input at once. Answers the account it will go from.
     */
    async check(userId: string, request: SendRequest): Promise<AccountSummary> {
      validate(request);
      // HTML the allow-list refuses (nesting too deep) is bad input now, not a failed send later.
      if (request.html !== undefined) sanitizeOutgoingHtml(request.html);
      const account = await sendingAccount(userId, request);
      // So are missing uploads and files over the provider's limit.
      const refs = request.attachments ?? [];
      if (refs.length > 0) {
        if (!deps.outgoingFiles)
          throw new DomainError("bad_request", "Attachments cannot be sent from here.");
        if (!request.draftId && refs.some((r) => r.kind === "draft"))
          throw new DomainError("validation_failed", "A file of a draft can only be sent with its draft.");
        await deps.outgoingFiles.check(userId, account.provider === "outlook" ? "outlook" : "gmail", refs);
      }
      return account;
    },

    /** Whether a mail sent with this Message-ID reached the account's mailbox (a retry's question). */
    async alreadySent(userId: string, request: SendRequest, messageId: string): Promise<boolean> {
      const account = await sendingAccount(userId, request);
      try {
        return await deps.providerClient(syncAccountOf(account)).findSent(messageId);
      } catch (err) {
        throw providerFailure(
          err,
          account.provider === "outlook" ? "outlook" : "gmail",
          "checking the sent mail",
        );
      }
    },

    async send(
      userId: string,
      request: SendRequest,
      options: { messageId?: string } = {},
    ): Promise<{ success: true; providerId: string | null }> {
      const message = validate(request);
      const replyingTo = request.inReplyToId ? await original(userId, request.inReplyToId) : undefined;
      const accounts = await accountsOf(db, userId);
      const account = chooseAccount(accounts, request.accountId ?? replyingTo?.accountId);
      const outgoing: OutgoingMessage = {
        ...message,
        ...(options.messageId ? { messageId: options.messageId } : {}),
      };
      // Rich text (issue 36): allow-listed here, whatever the client sent; without it, plain text as before.
      if (request.html !== undefined) outgoing.html = sanitizeOutgoingHtml(request.html);
      if (replyingTo) {
        outgoing.replyTo = {
          // A thread id means nothing in another mailbox; the Message-ID headers still thread it.
          threadId: replyingTo.accountId === account.id ? replyingTo.threadId : null,
          internetMessageId: replyingTo.internetMessageId,
          references: replyingTo.referencesHeader,
          // Graph's createReply/createReplyAll/createForward need the original in this mailbox.
          ...(replyingTo.accountId === account.id ? { providerId: replyingTo.providerId } : {}),
          mode: request.mode === "replyAll" || request.mode === "forward" ? request.mode : "reply",
        };
      }
      const provider = account.provider === "outlook" ? "outlook" : "gmail";
      const refs = request.attachments ?? [];
      if (refs.length > 0 && !deps.outgoingFiles)
        throw new DomainError("bad_request", "Attachments cannot be sent from here.");
      // Limits are checked here, before the provider hears of the mail.
      const files =
        refs.length > 0
          ? await deps.outgoingFiles?.resolve(userId, provider, refs, request.draftId)
          : undefined;
      if (files) outgoing.attachments = files.attachments;
      let providerId: string | null;
      try {
        ({ providerId } = await deps.providerClient(syncAccountOf(account)).send(outgoing));
      } catch (err) {
        throw providerFailure(err, provider, "sending the email");
      } finally {
        await files?.release();
      }
      // Sent: the uploads it used are deleted (a failed send keeps them for the retry).
      await files?.sent();
      if (request.draftId) await deps.drafts?.discardAfterSend(userId, request.draftId);
      deps.events.emit("email.sent", {
        userId,
        accountId: account.id,
        inReplyToId: request.inReplyToId ?? null,
        recipients: [...outgoing.to, ...outgoing.cc, ...outgoing.bcc],
      });
      return { success: true, providerId };
    },
  };
}

export type MailSender = ReturnType<typeof createMailSender>;
