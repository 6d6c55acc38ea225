import { and, eq } from "drizzle-orm";
import type { MailProvider } from "../../contract/auth.ts";
import type { InvitationAnswer, InvitationResponse } from "../../contract/calendar.ts";
import { ProviderError } from "../auth/errors.ts";
import type { Db } from "../db/client.ts";
import { emails, invitationAnswers, mailAccounts } from "../db/schema.ts";
import { DomainError } from "../http/errors.ts";
import type { Clock } from "../lib/clock.ts";
import { accountSummaryColumns, syncAccountOf } from "../mail/accounts.ts";
import { carriesInvitation } from "../mail/invitations.ts";
import { providerFailure } from "../mail/provider-failure.ts";
import type { ProviderClientFactory } from "../sync/types.ts";
import type { CalendarClientFactory } from "./factory.ts";
import { MAX_ICS_BYTES, readInvitation } from "./ics.ts";
import { ANSWER_VERB, invitationReplyIcs } from "./imip-reply.ts";
import type { CalendarIntegrationRow, CalendarIntegrations } from "./integrations.ts";
import type { CalendarSyncer } from "./syncer.ts";

const SAY: Record<InvitationAnswer, string> = { accepted: "Yes", tentative: "Maybe", declined: "No" };

/**
 * Yes / Maybe / No on an invitation a person received by mail. When one of their connected
 * calendars holds the event (same iCalendar UID, as Google and Exchange put invitations there),
 * the answer is recorded there and the provider tells the organizer; otherwise an iMIP reply
 * (RFC 6047: text/calendar; method=REPLY) goes to the organizer from the mailbox that got it.
 */
export function createInvitationAnswers(deps: {
  db: Db;
  clock: Clock;
  providerClient: ProviderClientFactory;
  integrations: CalendarIntegrations;
  clientFor: CalendarClientFactory;
  syncer: CalendarSyncer;
  log?: { warn(obj: object, msg: string): void };
}) {
  const { db } = deps;

  /** The calendar holding the event and its id there; the mailbox's own calendar is tried first. */
  async function findOnCalendar(
    userId: string,
    mailbox: string,
    uid: string,
  ): Promise<{ row: CalendarIntegrationRow; calendarId: string; eventId: string } | null> {
    const rows = (await deps.integrations.rows(userId)).filter((row) => row.status === "active");
    rows.sort((a, b) => Number(b.email === mailbox) - Number(a.email === mailbox));
    for (const row of rows) {
      const client = deps.clientFor(row);
      try {
        const calendarId = row.calendarId ?? (await client.primaryCalendar()).id;
        const eventId = await client.findByUid(calendarId, uid);
        if (eventId !== null) return { row, calendarId, eventId };
      } catch (err) {
        // One calendar not answering must not stop the answer: the mail path remains.
        deps.log?.warn({ integrationId: row.id, err }, "looking for an invitation's event failed");
      }
    }
    return null;
  }

  /** Keeps the answer beside the email, so the card shows it after a reload. */
  async function remember(
    userId: string,
    emailId: string,
    result: InvitationResponse,
  ): Promise<InvitationResponse> {
    const answer = {
      response: result.response,
      via: result.via,
      answeredFrom: result.from,
      organizer: result.organizer,
      answeredAt: deps.clock.now(),
    };
    // A later answer replaces the earlier one: the card shows what the organizer was told last.
    await db
      .insert(invitationAnswers)
      .values({ userId, emailId, ...answer })
      .onConflictDoUpdate({ target: [invitationAnswers.userId, invitationAnswers.emailId], set: answer });
    return result;
  }

  return {
    async respond(userId: string, emailId: string, answer: InvitationAnswer): Promise<InvitationResponse> {
      const [mail] = await db
        .select({
          providerId: emails.providerId,
          attachments: emails.attachments,
          account: accountSummaryColumns,
        })
        .from(emails)
        .innerJoin(mailAccounts, eq(mailAccounts.id, emails.accountId))
        .where(and(eq(emails.id, emailId), eq(emails.userId, userId), eq(mailAccounts.userId, userId)));
      if (!mail) throw new DomainError("not_found", "No such email.");
      if (!carriesInvitation(mail.attachments))
        throw new DomainError("bad_request", "This email carries no invitation to answer.");
      const account = syncAccountOf(mail.account);
      const provider: MailProvider = account.provider === "outlook" ? "outlook" : "gmail";
      const mailClient = deps.providerClient(account);
      let text: string | null;
      try {
        text = await mailClient.getCalendarPart(mail.providerId, MAX_ICS_BYTES);
      } catch (err) {
        throw providerFailure(err, provider, "reading the invitation");
      }
      const invitation = text === null ? null : readInvitation(text);
      const uid = invitation?.uid;
      const organizer = invitation?.organizer;
      if (
        !invitation ||
        !uid ||
        !organizer ||
        (invitation.method !== null && invitation.method !== "REQUEST")
      )
        throw new DomainError("bad_request", "This invitation cannot be answered.");
      if (invitation.status === "cancelled")
        throw new DomainError("bad_request", "This event was cancelled.");
      if (organizer.email === account.email.toLowerCase())
        throw new DomainError("bad_request", "You organized this event.");

      // An invitation to one occurrence of a series: the calendars would find the series by its UID
      // and answer all of it, so that answer goes by mail, naming the occurrence (RECURRENCE-ID).
      const found =
        invitation.occurrence === null
          ? await findOnCalendar(userId, account.email.toLowerCase(), uid)
          : null;
      if (found) {
        try {
          await deps.clientFor(found.row).respond(found.calendarId, found.eventId, found.row.email, answer);
          void deps.syncer.sync(found.row).catch(() => undefined);
          return remember(userId, emailId, {
            response: answer,
            via: "calendar",
            from: found.row.email,
            organizer: organizer.email,
          });
        } catch (err) {
          // The calendar refuses this answer for good (its owner is not a guest of the copy, say):
          // the mailbox that got the invitation can still answer by mail. Anything else is reported.
          if (!(err instanceof ProviderError && err.kind === "permanent"))
            throw providerFailure(
              err,
              found.row.provider === "google" ? "gmail" : "outlook",
              "answering the invitation",
            );
          deps.log?.warn(
            { integrationId: found.row.id, err },
            "calendar refused the answer; answering by mail",
          );
        }
      }

      const me = { email: account.email, name: account.displayName || null };
      const ics = invitationReplyIcs({
        invitation: { ...invitation, uid, organizer },
        attendee: me,
        answer,
        now: deps.clock.now(),
      });
      const who = me.name ?? me.email;
      try {
        await mailClient.send({
          to: [{ name: organizer.name ?? "", address: organizer.email }],
          cc: [],
          bcc: [],
          subject: `${ANSWER_VERB[answer]}: ${invitation.title}`,
          body: `${who} answered ${SAY[answer]} to "${invitation.title}".`,
          calendar: { method: "REPLY", ics },
        });
      } catch (err) {
        throw providerFailure(err, provider, "sending your answer");
      }
      return remember(userId, emailId, {
        response: answer,
        via: "email",
        from: account.email,
        organizer: organizer.email,
      });
    },
  };
}

export type InvitationAnswers = ReturnType<typeof createInvitationAnswers>;
