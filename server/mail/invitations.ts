import { and, eq } from "drizzle-orm";
import {
  type EmailInvitationResponse,
  type InvitationResponse,
  invitationAnswerSchema,
} from "../../contract/calendar.ts";
import { isValidTimeZone } from "../../contract/calendar-window.ts";
import { MAX_ICS_BYTES, readInvitation } from "../calendar/ics.ts";
import { emails, invitationAnswers, mailAccounts } from "../db/schema.ts";
import { DomainError } from "../http/errors.ts";
import { accountSummaryColumns, syncAccountOf } from "./accounts.ts";
import type { MailDeps } from "./deps.ts";
import { createInvitationCache } from "./invitation-cache.ts";
import { providerFailure } from "./provider-failure.ts";

/** Stored attachment metadata that marks an invitation (sync lists inline text/calendar parts too). */
export function carriesInvitation(attachments: readonly { filename: string; mimeType: string }[]): boolean {
  return attachments.some(
    (a) => a.mimeType === "text/calendar" || a.mimeType === "application/ics" || /\.ics$/i.test(a.filename),
  );
}

/** A stored answer as the API shows it; null when none (or a row this version cannot read). */
function storedAnswer(
  row: { response: string | null; via: string | null; from: string | null; organizer: string | null } | null,
): InvitationResponse | null {
  const response = invitationAnswerSchema.safeParse(row?.response);
  if (!row || !response.success || row.from === null || row.organizer === null) return null;
  return {
    response: response.data,
    via: row.via === "calendar" ? "calendar" : "email",
    from: row.from,
    organizer: row.organizer,
  };
}

/**
 * The invitation an email carries, read from the provider when the reader opens the email
 * (we keep attachment metadata only): mail without a calendar part costs one database read, a
 * mail reopened within minutes one database read too (the answer is cached).
 */
export function createInvitationReader(deps: Pick<MailDeps, "db" | "providerClient" | "clock">) {
  const cache = createInvitationCache(deps.clock);
  return {
    async get(userId: string, emailId: string, tz: string | undefined): Promise<EmailInvitationResponse> {
      if (tz !== undefined && !isValidTimeZone(tz)) {
        throw new DomainError("validation_failed", "Invalid tz", { tz: "Unknown time zone" });
      }
      const [row] = await deps.db
        .select({
          providerId: emails.providerId,
          attachments: emails.attachments,
          account: accountSummaryColumns,
          answer: {
            response: invitationAnswers.response,
            via: invitationAnswers.via,
            from: invitationAnswers.answeredFrom,
            organizer: invitationAnswers.organizer,
          },
        })
        .from(emails)
        .innerJoin(mailAccounts, eq(mailAccounts.id, emails.accountId))
        .leftJoin(
          invitationAnswers,
          and(eq(invitationAnswers.emailId, emails.id), eq(invitationAnswers.userId, userId)),
        )
        .where(and(eq(emails.id, emailId), eq(emails.userId, userId), eq(mailAccounts.userId, userId)));
      if (!row) throw new DomainError("not_found", "No such email.");
      if (!carriesInvitation(row.attachments)) return { invitation: null, answer: null };
      // The answer changes when the person answers; the invitation does not, so only it is cached.
      const answer = storedAnswer(row.answer);
      const zone = tz ?? "UTC";
      const cached = cache.get(emailId, zone);
      if (cached !== undefined) return { invitation: cached, answer };
      const account = syncAccountOf(row.account);
      let text: string | null;
      try {
        text = await deps.providerClient(account).getCalendarPart(row.providerId, MAX_ICS_BYTES);
      } catch (err) {
        throw providerFailure(err, account.provider, "reading the invitation");
      }
      const invitation = text === null ? null : readInvitation(text, zone);
      cache.set(emailId, zone, invitation);
      return { invitation, answer };
    },
  };
}

export type InvitationReader = ReturnType<typeof createInvitationReader>;
