import ICAL from "ical.js";
import type { Invitation, InvitationAnswer } from "../../contract/calendar.ts";

/** iCalendar PARTSTAT of each answer (RFC 5545 3.2.12). */
const PARTSTAT: Record<InvitationAnswer, string> = {
  accepted: "ACCEPTED",
  tentative: "TENTATIVE",
  declined: "DECLINED",
};

/** The subject line mail clients give a reply ("Accepted: Roadmap review"). */
export const ANSWER_VERB: Record<InvitationAnswer, string> = {
  accepted: "Accepted",
  tentative: "Tentatively accepted",
  declined: "Declined",
};

/** A parameter value without what would end or break it (quotes, control characters). */
function paramText(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  return value.replace(/[\u0000-\u001f\u007f"]/g, "").slice(0, 200);
}

function timeOf(value: string, allDay: boolean): ICAL.Time {
  return allDay ? ICAL.Time.fromDateString(value) : ICAL.Time.fromJSDate(new Date(value), true);
}

/**
 * The iTIP REPLY (RFC 5546 3.2.3) to an invitation, written with ical.js: the organizer's UID and
 * SEQUENCE (and RECURRENCE-ID for one occurrence), and one ATTENDEE, the person answering, with
 * their PARTSTAT.
 */
export function invitationReplyIcs(input: {
  invitation: Invitation & { uid: string; organizer: NonNullable<Invitation["organizer"]> };
  attendee: { email: string; name: string | null };
  answer: InvitationAnswer;
  now: Date;
}): string {
  const { invitation } = input;
  const calendar = new ICAL.Component(["vcalendar", [], []]);
  calendar.updatePropertyWithValue("prodid", "-//Mailwise//Invitation answer//EN");
  calendar.updatePropertyWithValue("version", "2.0");
  calendar.updatePropertyWithValue("method", "REPLY");
  const event = new ICAL.Component("vevent");
  event.updatePropertyWithValue("uid", invitation.uid);
  event.updatePropertyWithValue("dtstamp", ICAL.Time.fromJSDate(input.now, true));
  event.updatePropertyWithValue("sequence", invitation.sequence);
  // An invitation to one occurrence is answered for that occurrence only (RFC 5546 3.2.3).
  if (invitation.occurrence !== null)
    event.updatePropertyWithValue(
      "recurrence-id",
      timeOf(invitation.occurrence, invitation.occurrence.length === 10),
    );
  event.updatePropertyWithValue("dtstart", timeOf(invitation.start, invitation.allDay));
  event.updatePropertyWithValue("dtend", timeOf(invitation.end, invitation.allDay));
  event.updatePropertyWithValue("summary", invitation.title);
  const organizer = new ICAL.Property("organizer");
  if (invitation.organizer.name) organizer.setParameter("cn", paramText(invitation.organizer.name));
  organizer.setValue(`mailto:${invitation.organizer.email}`);
  event.addProperty(organizer);
  const attendee = new ICAL.Property("attendee");
  attendee.setParameter("partstat", PARTSTAT[input.answer]);
  if (input.attendee.name) attendee.setParameter("cn", paramText(input.attendee.name));
  attendee.setValue(`mailto:${input.attendee.email}`);
  event.addProperty(attendee);
  calendar.addSubcomponent(event);
  return calendar.toString();
}
