import { createHash } from "node:crypto";
import { Temporal } from "temporal-polyfill";
import type { Identity } from "../identities.ts";
import { rfc2822Date } from "./compose.ts";
import { type Address, encodeWord, formatAddress } from "./headers.ts";
import type { Mailbox } from "./mailbox.ts";
import { indexHeaders } from "./message-index.ts";

/**
 * Invitation mail as Google Calendar sends it: multipart/mixed holding a multipart/alternative
 * (text, HTML, and the text/calendar part with METHOD:REQUEST) and the same iCalendar text again
 * as an `invite.ics` attachment (application/ics). Times are UTC, as Google writes them.
 */

export interface InvitationInput {
  organizer: Address;
  to: Address;
  /** Other guests besides `to`. */
  guests?: readonly Address[];
  title: string;
  start: Temporal.Instant;
  end: Temporal.Instant;
  /** Shown in the text parts ("15:00 - 16:00 (London)"). */
  timeZone: string;
  location?: string;
  description?: string;
  /** When the mail was sent (epoch ms). */
  sentAt: number;
  /** The event's iCalendar UID and SEQUENCE when it lives in a calendar (else derived, 0). */
  uid?: string;
  sequence?: number;
  /** All-day events: the dates (end exclusive), written as DATE values. */
  dates?: { start: string; end: string };
  /** Who sends it: Google Calendar (default) or Exchange. */
  sender?: "google" | "microsoft";
}

const PRODID = {
  google: "-//Google Inc//Google Calendar 70.9054//EN",
  microsoft: "Microsoft Exchange Server 2010",
} as const;

/** RFC 5545 3.3.11 TEXT escaping. */
export function icsText(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/;/g, "\\;").replace(/,/g, "\\,").replace(/\r?\n/g, "\\n");
}

/** RFC 5545 3.1: lines over 75 octets are folded (CRLF and a space). */
export function fold(line: string): string {
  const out: string[] = [];
  let rest = line;
  while (Buffer.byteLength(rest, "utf8") > 75) {
    let cut = 75;
    while (Buffer.byteLength(rest.slice(0, cut), "utf8") > 75) cut -= 1;
    out.push(rest.slice(0, cut));
    rest = ` ${rest.slice(cut)}`;
  }
  out.push(rest);
  return out.join("\r\n");
}

export function utcStamp(instant: Temporal.Instant): string {
  return instant.toString({ smallestUnit: "second" }).replace(/[-:]/g, "").replace(/\.\d+/, "");
}

export function cn(address: Address): string {
  return `CN=${JSON.stringify(address.name || address.address)}`;
}

/** The iCalendar text of an invitation (METHOD:REQUEST). */
export function invitationIcs(input: InvitationInput, uid: string): string {
  const guests = [input.to, ...(input.guests ?? [])];
  const lines = [
    "BEGIN:VCALENDAR",
    `PRODID:${PRODID[input.sender ?? "google"]}`,
    "VERSION:2.0",
    "CALSCALE:GREGORIAN",
    "METHOD:REQUEST",
    "BEGIN:VEVENT",
    ...(input.dates
      ? [
          `DTSTART;VALUE=DATE:${input.dates.start.replaceAll("-", "")}`,
          `DTEND;VALUE=DATE:${input.dates.end.replaceAll("-", "")}`,
        ]
      : [`DTSTART:${utcStamp(input.start)}`, `DTEND:${utcStamp(input.end)}`]),
    `DTSTAMP:${utcStamp(Temporal.Instant.fromEpochMilliseconds(input.sentAt))}`,
    `ORGANIZER;${cn(input.organizer)}:mailto:${input.organizer.address}`,
    `UID:${uid}`,
    `ATTENDEE;CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;RSVP=TRUE;${cn(input.organizer)}:mailto:${input.organizer.address}`,
    ...guests.map(
      (guest) =>
        `ATTENDEE;CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=TRUE;${cn(guest)}:mailto:${guest.address}`,
    ),
    `SUMMARY:${icsText(input.title)}`,
    ...(input.location ? [`LOCATION:${icsText(input.location)}`] : []),
    ...(input.description ? [`DESCRIPTION:${icsText(input.description)}`] : []),
    `SEQUENCE:${input.sequence ?? 0}`,
    "STATUS:CONFIRMED",
    "TRANSP:OPAQUE",
    "END:VEVENT",
    "END:VCALENDAR",
  ];
  return `${lines.map(fold).join("\r\n")}\r\n`;
}

export function base64Lines(text: string): string {
  return Buffer.from(text, "utf8").toString("base64").replace(/.{76}/g, "$&\r\n");
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c] ?? c);
}

function digestOf(input: Pick<InvitationInput, "organizer" | "to" | "title" | "start">): string {
  return createHash("sha1")
    .update(`${input.organizer.address}|${input.to.address}|${input.title}|${input.start.toString()}`)
    .digest("hex");
}

/** The UID of an invitation that names none: the same meeting mailed again keeps it. */
export function derivedUid(input: Pick<InvitationInput, "organizer" | "to" | "title" | "start">): string {
  return `${digestOf(input).slice(0, 26)}@google.com`;
}

/** The whole RFC 822 message of an invitation. */
export function composeInvitation(input: InvitationInput): string {
  const digest = digestOf(input);
  const uid = input.uid ?? derivedUid(input);
  const ics = invitationIcs(input, uid);
  const when = input.start.toZonedDateTimeISO(input.timeZone);
  const until = input.end.toZonedDateTimeISO(input.timeZone);
  const whenText = `${when.toPlainDate().toLocaleString("en-GB", {
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
  })} ${when.toPlainTime().toString({ smallestUnit: "minute" })} - ${until
    .toPlainTime()
    .toString({ smallestUnit: "minute" })} (${input.timeZone})`;
  const text = [
    `${input.organizer.name || input.organizer.address} has invited you to an event.`,
    "",
    input.title,
    `When: ${whenText}`,
    ...(input.location ? [`Where: ${input.location}`] : []),
    ...(input.description ? ["", input.description] : []),
    "",
    "Reply for you: Yes, Maybe or No in your calendar.",
  ].join("\r\n");
  const html = `<p>${escapeHtml(input.organizer.name || input.organizer.address)} has invited you to an event.</p><h2>${escapeHtml(input.title)}</h2><p>When: ${escapeHtml(whenText)}</p>${input.location ? `<p>Where: ${escapeHtml(input.location)}</p>` : ""}${input.description ? `<p>${escapeHtml(input.description)}</p>` : ""}`;
  // A calendar's event is sent again on every change: each mail gets its own Message-ID.
  const messageKey =
    input.uid === undefined
      ? digest
      : createHash("sha1")
          .update(`${uid}|${input.to.address}|${input.sequence ?? 0}|${input.sentAt}`)
          .digest("hex");
  const mixed = `=_mixed_${digest.slice(0, 16)}`;
  const alternative = `=_alt_${digest.slice(16, 32)}`;
  const headers = [
    `From: ${formatAddress(input.organizer)}`,
    `To: ${formatAddress(input.to)}`,
    `Subject: ${encodeWord(`Invitation: ${input.title} @ ${whenText}`)}`,
    `Date: ${rfc2822Date(input.sentAt)}`,
    `Message-ID: <${messageKey.slice(0, 24)}@${input.sender === "microsoft" ? "outlook.com" : "google.com"}>`,
    `Reply-To: ${formatAddress(input.organizer)}`,
    "MIME-Version: 1.0",
    `Content-Type: multipart/mixed; boundary="${mixed}"`,
  ];
  const body = [
    `--${mixed}`,
    `Content-Type: multipart/alternative; boundary="${alternative}"`,
    "",
    `--${alternative}`,
    'Content-Type: text/plain; charset="UTF-8"',
    "Content-Transfer-Encoding: base64",
    "",
    base64Lines(text),
    `--${alternative}`,
    'Content-Type: text/html; charset="UTF-8"',
    "Content-Transfer-Encoding: base64",
    "",
    base64Lines(html),
    `--${alternative}`,
    'Content-Type: text/calendar; charset="UTF-8"; method=REQUEST',
    "Content-Transfer-Encoding: 7bit",
    "",
    ics,
    `--${alternative}--`,
    `--${mixed}`,
    'Content-Type: application/ics; name="invite.ics"',
    'Content-Disposition: attachment; filename="invite.ics"',
    "Content-Transfer-Encoding: base64",
    "",
    base64Lines(ics),
    `--${mixed}--`,
    "",
  ];
  return `${headers.join("\r\n")}\r\n\r\n${body.join("\r\n")}`;
}

/** The demo meeting, as its organizer's calendar would hold it. */
export interface DemoMeeting {
  readonly guest: Identity;
  readonly organizer: Address;
  readonly uid: string;
  readonly title: string;
  readonly start: Temporal.Instant;
  readonly end: Temporal.Instant;
  readonly timeZone: string;
  readonly location: string;
  readonly description: string;
}

/**
 * Puts the demo meeting in its organizer's calendar (and the guest's copy in theirs) when the
 * organizer is an emulator identity, so an answer to the invitation changes a calendar, as one
 * sent through the calendar does. Answers the event's SEQUENCE, or undefined for an organizer
 * from elsewhere. The calendar services provide it; the mailbox knows no calendars.
 */
export type DemoMeetingPlanner = (meeting: DemoMeeting) => { sequence: number } | undefined;

/**
 * The demo invitation: `organizer` invites `identity` to a roadmap review three days from now,
 * 15:00-16:00 in `zone`, sent an hour ago. `record` false when seeding (no history entry).
 */
export function deliverDemoInvitation(
  mailbox: Mailbox,
  identity: Identity,
  organizer: Address,
  zone: string,
  nowMs: number,
  record = true,
  planner?: DemoMeetingPlanner,
) {
  const day = Temporal.Instant.fromEpochMilliseconds(nowMs)
    .toZonedDateTimeISO(zone)
    .toPlainDate()
    .add({ days: 3 });
  const start = day.toZonedDateTime({ timeZone: zone, plainTime: "15:00" }).toInstant();
  const sentAt = nowMs - 60 * 60 * 1000;
  const to = { name: identity.name, address: identity.email };
  const meeting = {
    title: "Roadmap review",
    start,
    end: start.add({ hours: 1 }),
    timeZone: zone,
    location: "Meeting room 2 / video call",
    description: "Where the roadmap stands, and what we move to next quarter.",
  };
  const uid = derivedUid({ organizer, to, title: meeting.title, start });
  const planned = planner?.({ ...meeting, guest: identity, organizer, uid });
  const raw = composeInvitation({
    organizer,
    to,
    ...meeting,
    sentAt,
    ...(planned === undefined ? {} : { uid, sequence: planned.sequence }),
  });
  return mailbox.add(
    {
      raw: () => raw,
      internalDate: sentAt,
      labelIds: ["INBOX", "UNREAD", "CATEGORY_PERSONAL"],
      headers: indexHeaders(raw),
      sizeEstimate: Buffer.byteLength(raw, "utf8"),
    },
    record,
  );
}
