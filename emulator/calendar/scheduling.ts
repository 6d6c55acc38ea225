import { createHash } from "node:crypto";
import ICAL from "ical.js";
import { Temporal } from "temporal-polyfill";
import type { EmulatorContext } from "../context.ts";
import type { Identity } from "../identities.ts";
import { rfc2822Date } from "../mailbox/compose.ts";
import { type Address, encodeWord, formatAddress } from "../mailbox/headers.ts";
import {
  base64Lines,
  cn,
  composeInvitation,
  type DemoMeeting,
  fold,
  icsText,
  utcStamp,
} from "../mailbox/invitation.ts";
import { indexHeaders } from "../mailbox/message-index.ts";
import { decodedText, leafParts, parseMime, toBinary } from "../mailbox/mime.ts";
import type { MailServices } from "../mailbox/services.ts";
import type { CalendarStore, ResponseStatus, StoredEvent } from "./store.ts";
import { type EventTime, instantOf, isTimeZone, localIn } from "./time.ts";

/**
 * iTIP over mail (RFC 5546/6047) as Google Calendar and Exchange do it between their own users:
 * an organizer's new event mails each guest a METHOD:REQUEST invitation and puts a copy in the
 * guest's calendar; a guest's answer updates the organizer's copy and, when asked to notify, mails
 * the organizer a METHOD:REPLY. A REPLY mailed by any client (an app without a calendar) is
 * applied to the organizer's event when it reaches an organizer who is one of ours.
 */

export type Sender = "google" | "microsoft";

/** What scheduling needs of the calendar services (which pass themselves). */
export interface SchedulingDeps {
  readonly context: EmulatorContext;
  readonly mail: MailServices;
  storeOf(identity: Identity): CalendarStore;
}

const PARTSTAT: Record<ResponseStatus, string> = {
  accepted: "ACCEPTED",
  tentative: "TENTATIVE",
  declined: "DECLINED",
  needsAction: "NEEDS-ACTION",
};
const RESPONSE_OF: Record<string, ResponseStatus> = {
  ACCEPTED: "accepted",
  TENTATIVE: "tentative",
  DECLINED: "declined",
  "NEEDS-ACTION": "needsAction",
};
const VERB: Record<ResponseStatus, string> = {
  accepted: "Accepted",
  tentative: "Tentatively accepted",
  declined: "Declined",
  needsAction: "Not answered",
};

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

function deliver(services: SchedulingDeps, identity: Identity, raw: string, at: number): void {
  services.mail.mailboxOf(identity).add({
    raw: () => raw,
    internalDate: at,
    labelIds: ["INBOX", "UNREAD", "CATEGORY_PERSONAL"],
    headers: indexHeaders(raw),
    sizeEstimate: Buffer.byteLength(raw, "utf8"),
  });
}

function addressOf(person: { email: string; name?: string | undefined }): Address {
  return { name: person.name ?? person.email, address: person.email };
}

function instants(event: StoredEvent, store: CalendarStore) {
  return {
    start: Temporal.Instant.fromEpochMilliseconds(instantOf(event.start, store.timeZone)),
    end: Temporal.Instant.fromEpochMilliseconds(instantOf(event.end, store.timeZone)),
    ...(event.start.kind === "date" && event.end.kind === "date"
      ? { dates: { start: event.start.date, end: event.end.date } }
      : {}),
  };
}

/** The guest's own copy of the organizer's event (made or refreshed), as both providers keep one. */
function placeCopy(services: SchedulingDeps, guest: Identity, event: StoredEvent): void {
  const store = services.storeOf(guest);
  const existing = store.byUid(event.uid).find((copy) => copy.recurringEventId === undefined);
  if (existing !== undefined) {
    store.update(existing.id, {
      summary: event.summary,
      location: event.location,
      status: event.status,
      start: event.start,
      end: event.end,
    });
    return;
  }
  store.add({
    calendarId: store.primary.id,
    uid: event.uid,
    summary: event.summary,
    description: event.description,
    location: event.location,
    start: event.start,
    end: event.end,
    rrule: event.rrule,
    status: event.status,
    organizer: event.organizer,
    attendees: event.attendees.map((attendee) => ({ ...attendee })),
    originalStart: undefined,
  });
}

/**
 * Mails the invitation to each guest (all of them, or those `only` keeps) and puts the event in
 * the calendars of guests who are emulator identities. Answers the addresses mailed.
 */
export function sendInvitations(
  services: SchedulingDeps,
  store: CalendarStore,
  event: StoredEvent,
  sender: Sender,
  only?: (email: string) => boolean,
): string[] {
  const now = services.context.clock.now();
  const guests = event.attendees.filter((attendee) => !same(attendee.email, event.organizer.email));
  const timeZone = event.start.kind === "timed" ? event.start.timeZone : store.timeZone;
  const mailed: string[] = [];
  for (const guest of guests) {
    if (only !== undefined && !only(guest.email)) continue;
    const raw = composeInvitation({
      organizer: addressOf(event.organizer),
      to: addressOf(guest),
      guests: guests.filter((other) => other !== guest).map(addressOf),
      title: event.summary,
      ...instants(event, store),
      timeZone,
      ...(event.location ? { location: event.location } : {}),
      ...(event.description ? { description: event.description } : {}),
      sentAt: now,
      uid: event.uid,
      sequence: event.sequence,
      sender,
    });
    mailed.push(guest.email);
    for (const identity of services.context.identities.findByEmail(guest.email)) {
      deliver(services, identity, raw, now);
      placeCopy(services, identity, event);
    }
  }
  return mailed;
}

/**
 * The demo invitation's meeting in its organizer's calendar (once per UID) and the guest's copy
 * in theirs, as if the organizer had sent it from their calendar. Undefined when the organizer is
 * not an emulator identity: then only the mail exists, as for an invitation from outside.
 */
export function planDemoMeeting(
  services: SchedulingDeps,
  meeting: DemoMeeting,
): { sequence: number } | undefined {
  const [organizer] = services.context.identities.findByEmail(meeting.organizer.address);
  if (organizer === undefined || same(organizer.email, meeting.guest.email)) return undefined;
  const store = services.storeOf(organizer);
  const existing = store.byUid(meeting.uid).find((event) => same(event.organizer.email, organizer.email));
  const at = (instant: Temporal.Instant) => ({
    kind: "timed" as const,
    local: localIn(instant.epochMilliseconds, meeting.timeZone),
    timeZone: meeting.timeZone,
  });
  const self = { email: organizer.email, name: organizer.name };
  const event =
    existing ??
    store.add({
      calendarId: store.primary.id,
      uid: meeting.uid,
      summary: meeting.title,
      description: meeting.description,
      location: meeting.location,
      start: at(meeting.start),
      end: at(meeting.end),
      rrule: undefined,
      status: "confirmed",
      organizer: self,
      attendees: [
        { ...self, response: "accepted" },
        { email: meeting.guest.email, name: meeting.guest.name, response: "needsAction" },
      ],
      originalStart: undefined,
    });
  placeCopy(services, meeting.guest, event);
  return { sequence: event.sequence };
}

/** The RFC 822 text of an iMIP reply: the attendee's PARTSTAT for the organizer's event. */
export function composeReply(input: {
  attendee: Address;
  organizer: Address;
  event: StoredEvent;
  store: CalendarStore;
  response: ResponseStatus;
  sentAt: number;
  sender: Sender;
}): string {
  const { event } = input;
  const when = instants(event, input.store);
  const ics = `${[
    "BEGIN:VCALENDAR",
    `PRODID:${input.sender === "google" ? "-//Google Inc//Google Calendar 70.9054//EN" : "Microsoft Exchange Server 2010"}`,
    "VERSION:2.0",
    "CALSCALE:GREGORIAN",
    "METHOD:REPLY",
    "BEGIN:VEVENT",
    ...(when.dates
      ? [
          `DTSTART;VALUE=DATE:${when.dates.start.replaceAll("-", "")}`,
          `DTEND;VALUE=DATE:${when.dates.end.replaceAll("-", "")}`,
        ]
      : [`DTSTART:${utcStamp(when.start)}`, `DTEND:${utcStamp(when.end)}`]),
    `DTSTAMP:${utcStamp(Temporal.Instant.fromEpochMilliseconds(input.sentAt))}`,
    `ORGANIZER;${cn(input.organizer)}:mailto:${input.organizer.address}`,
    `UID:${event.uid}`,
    `ATTENDEE;CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT;PARTSTAT=${PARTSTAT[input.response]};${cn(input.attendee)}:mailto:${input.attendee.address}`,
    `SUMMARY:${icsText(event.summary)}`,
    `SEQUENCE:${event.sequence}`,
    "END:VEVENT",
    "END:VCALENDAR",
  ]
    .map(fold)
    .join("\r\n")}\r\n`;
  const who = input.attendee.name || input.attendee.address;
  const verb = VERB[input.response];
  const text = `${who} has ${verb.toLowerCase()} this invitation.\r\n\r\n${event.summary}\r\n`;
  const key = createHash("sha1")
    .update(`${event.uid}|${input.attendee.address}|${input.response}|${input.sentAt}`)
    .digest("hex");
  const boundary = `=_reply_${key.slice(0, 16)}`;
  const domain = input.sender === "google" ? "google.com" : "outlook.com";
  return [
    `From: ${formatAddress(input.attendee)}`,
    `To: ${formatAddress(input.organizer)}`,
    `Subject: ${encodeWord(`${verb}: ${event.summary}`)}`,
    `Date: ${rfc2822Date(input.sentAt)}`,
    `Message-ID: <${key.slice(0, 24)}@${domain}>`,
    "MIME-Version: 1.0",
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    "",
    `--${boundary}`,
    'Content-Type: text/plain; charset="UTF-8"',
    "Content-Transfer-Encoding: base64",
    "",
    base64Lines(text),
    `--${boundary}`,
    'Content-Type: text/calendar; charset="UTF-8"; method=REPLY',
    "Content-Transfer-Encoding: 7bit",
    "",
    ics,
    `--${boundary}--`,
    "",
  ].join("\r\n");
}

/** Sets `response` on the organizer's copies of the event when the organizer is one of ours. */
function recordOnOrganizerCopies(
  services: SchedulingDeps,
  organizerEmail: string,
  uid: string,
  attendee: string,
  response: ResponseStatus,
): number {
  let changed = 0;
  for (const organizer of services.context.identities.findByEmail(organizerEmail)) {
    const store = services.storeOf(organizer);
    for (const copy of store.byUid(uid)) {
      if (same(copy.organizer.email, organizer.email) && store.setResponse(copy.id, attendee, response))
        changed += 1;
    }
  }
  return changed;
}

/** Two event times naming the same moment the same way (an exception's original start). */
function sameTime(a: EventTime | undefined, b: EventTime): boolean {
  if (a === undefined || a.kind !== b.kind) return false;
  return a.kind === "date"
    ? b.kind === "date" && a.date === b.date
    : b.kind === "timed" && a.local === b.local && a.timeZone === b.timeZone;
}

/**
 * An answer for one occurrence of a series the recipient organizes (a REPLY with RECURRENCE-ID):
 * recorded on that occurrence's exception, made if there is none, as Google and Exchange do; the
 * rest of the series keeps the attendee's earlier answer.
 */
function recordOnOrganizerOccurrence(
  services: SchedulingDeps,
  organizerEmail: string,
  uid: string,
  recurrenceId: ICAL.Time,
  tzid: unknown,
  attendee: string,
  response: ResponseStatus,
): void {
  for (const organizer of services.context.identities.findByEmail(organizerEmail)) {
    const store = services.storeOf(organizer);
    const master = store
      .byUid(uid)
      .find((event) => event.rrule !== undefined && same(event.organizer.email, organizer.email));
    if (master === undefined) continue;
    let originalStart: EventTime;
    if (master.start.kind === "date") {
      originalStart = { kind: "date", date: recurrenceId.toString().slice(0, 10) };
    } else {
      const wall = Temporal.PlainDateTime.from(recurrenceId.toString().slice(0, 19));
      const zone = typeof tzid === "string" && isTimeZone(tzid) ? tzid : "UTC";
      const ms = wall.toZonedDateTime(zone).epochMilliseconds;
      originalStart = {
        kind: "timed",
        local: localIn(ms, master.start.timeZone),
        timeZone: master.start.timeZone,
      };
    }
    const exception =
      store
        .byUid(uid)
        .find(
          (event) => event.recurringEventId === master.id && sameTime(event.originalStart, originalStart),
        ) ?? store.overrideOccurrence(master, originalStart, {});
    store.setResponse(exception.id, attendee, response);
  }
}

/**
 * A guest answers on their own copy (Google events.patch of their responseStatus, Graph
 * accept/tentativelyAccept/decline): their copy and the organizer's change; with `notify`, the
 * organizer also gets the reply by mail. False when the responder is not on the event.
 */
export function respond(
  services: SchedulingDeps,
  responder: Identity,
  store: CalendarStore,
  event: StoredEvent,
  response: ResponseStatus,
  notify: boolean,
  sender: Sender,
): boolean {
  if (!store.setResponse(event.id, responder.email, response)) return false;
  if (same(event.organizer.email, responder.email)) return true;
  recordOnOrganizerCopies(services, event.organizer.email, event.uid, responder.email, response);
  if (notify) {
    const now = services.context.clock.now();
    const raw = composeReply({
      attendee: { name: responder.name, address: responder.email },
      organizer: addressOf(event.organizer),
      event,
      store,
      response,
      sentAt: now,
      sender,
    });
    for (const organizer of services.context.identities.findByEmail(event.organizer.email))
      deliver(services, organizer, raw, now);
  }
  return true;
}

/**
 * A mail that reached `recipient`: when it carries an iMIP REPLY for an event `recipient`
 * organizes, each answering attendee's PARTSTAT is recorded on that event (as Gmail and Exchange
 * process replies on arrival). Anything unreadable is ordinary mail.
 */
export function applyReplyMail(services: SchedulingDeps, recipient: Identity, raw: string): void {
  let text: string | undefined;
  try {
    const part = leafParts(parseMime(toBinary(raw))).find((p) => p.mimeType === "text/calendar");
    if (part === undefined) return;
    text = decodedText(part);
  } catch {
    return;
  }
  if (!/^METHOD:REPLY\s*$/im.test(text)) return;
  try {
    const calendar = new ICAL.Component(ICAL.parse(text) as unknown[]);
    for (const vevent of calendar.getAllSubcomponents("vevent")) {
      const uid = vevent.getFirstPropertyValue("uid");
      if (typeof uid !== "string") continue;
      const recurrenceId = vevent.getFirstPropertyValue("recurrence-id");
      const tzid = vevent.getFirstProperty("recurrence-id")?.getParameter("tzid");
      for (const attendee of vevent.getAllProperties("attendee")) {
        const address = String(attendee.getFirstValue() ?? "").replace(/^mailto:/i, "");
        const partstat = String(attendee.getParameter("partstat") ?? "").toUpperCase();
        const response = RESPONSE_OF[partstat];
        if (address === "" || response === undefined) continue;
        if (recurrenceId instanceof ICAL.Time)
          recordOnOrganizerOccurrence(services, recipient.email, uid, recurrenceId, tzid, address, response);
        else recordOnOrganizerCopies(services, recipient.email, uid, address, response);
      }
    }
  } catch {
    // Not iCalendar after all: nothing to apply.
  }
}
