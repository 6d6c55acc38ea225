import { and, eq } from "drizzle-orm";
import type { EmailInvitationResponse } from "../../contract/calendar.ts";
import { isValidTimeZone } from "../../contract/calendar-window.ts";
import { MAX_ICS_BYTES, readInvitation } from "../calendar/ics.ts";
import { emails, mailAccounts } from "../db/schema.ts";
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
        })
        .from(emails)
        .innerJoin(mailAccounts, eq(mailAccounts.id, emails.accountId))
        .where(and(eq(emails.id, emailId), eq(emails.userId, userId), eq(mailAccounts.userId, userId)));
      if (!row) throw new DomainError("not_found", "No such email.");
      if (!carriesInvitation(row.attachments)) return { invitation: null };
      const zone = tz ?? "UTC";
      const cached = cache.get(emailId, zone);
      if (cached) return cached;
      const account = syncAccountOf(row.account);
      let text: string | null;
      try {
        text = await deps.providerClient(account).getCalendarPart(row.providerId, MAX_ICS_BYTES);
      } catch (err) {
        throw providerFailure(err, account.provider, "reading the invitation");
      }
      const answer = { invitation: text === null ? null : readInvitation(text, zone) };
      cache.set(emailId, zone, answer);
      return answer;
    },
  };
}

export type InvitationReader = ReturnType<typeof createInvitationReader>;
