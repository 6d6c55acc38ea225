import ICAL from "ical.js";
import { Temporal } from "temporal-polyfill";
import type { Invitation, InvitationPerson } from "../../contract/calendar.ts";
import { isValidTimeZone } from "../../contract/calendar-window.ts";
import { vtimezoneOffsetAt, wallOf } from "./vtimezone-offset.ts";
import { ianaZoneOf } from "./zone-names.ts";

/**
 * Reading an invitation (a `text/calendar` part or an .ics attachment) with ical.js, Mozilla's
 * maintained RFC 5545 parser (decision 0039). The text comes from any sender: it is size-capped
 * before parsing, any parse failure is "no invitation", and every string that leaves here is
 * plain text without control or direction-override characters, cut to a fixed length.
 */

/** Calendar parts larger than this are not downloaded or parsed (real invitations are a few KB). */
export const MAX_ICS_BYTES = 256 * 1024;
const MAX_TITLE = 500;
const MAX_LOCATION = 500;
const MAX_DESCRIPTION = 4000;
const MAX_PEOPLE = 50;

/** Control characters (but tab and newline), and Unicode bidi overrides/isolates. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
const UNSAFE_CHARS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** Plain, safe, bounded text from a sender-controlled value. */
export function cleanText(value: unknown, max: number, multiline = false): string {
  if (typeof value !== "string") return "";
  let text = value.replace(/\r\n?/g, "\n").replace(UNSAFE_CHARS, "");
  text = multiline ? text.replace(/\n{3,}/g, "\n\n") : text.replace(/\s+/g, " ");
  text = text.trim();
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

const EMAIL = /^[^\s@<>()",;:]{1,64}@[^\s@<>()",;:]{1,255}$/;

function personOf(value: unknown, name: unknown): InvitationPerson | null {
  if (typeof value !== "string") return null;
  const email = value
    .replace(/^mailto:/i, "")
    .trim()
    .toLowerCase();
  if (!EMAIL.test(email)) return null;
  const cleanName = cleanText(name, 200);
  return { email, name: cleanName === "" ? null : cleanName };
}

type When = { kind: "date"; date: string } | { kind: "timed"; at: Temporal.Instant; zone: string | null };

function pad(n: number, width = 2): string {
  return String(n).padStart(width, "0");
}

/**
 * An ICAL.Time as a date or an instant: UTC; a zone the time zone database knows by its IANA or
 * Windows name (Outlook's); else the sender's VTIMEZONE for that TZID, read without expanding
 * its rules (decision 0049); floating time is placed in `fallbackZone`.
 */
function whenOf(
  time: ICAL.Time,
  tzidParam: unknown,
  calendar: ICAL.Component,
  fallbackZone: string,
): When | null {
  if (time.isDate) {
    return { kind: "date", date: `${pad(time.year, 4)}-${pad(time.month)}-${pad(time.day)}` };
  }
  const wall = wallOf(time);
  if (!wall) return null;
  const tzid = typeof tzidParam === "string" && tzidParam !== "" ? tzidParam : null;
  if (time.zone === ICAL.Timezone.utcTimezone || tzid === "UTC") {
    return { kind: "timed", at: wall.toZonedDateTime("UTC").toInstant(), zone: null };
  }
  if (tzid) {
    const iana = ianaZoneOf(tzid);
    if (iana) return { kind: "timed", at: wall.toZonedDateTime(iana).toInstant(), zone: iana };
    const definition = calendar
      .getAllSubcomponents("vtimezone")
      .find((zone) => zone.getFirstPropertyValue("tzid") === tzid);
    const offset = definition ? vtimezoneOffsetAt(definition, wall) : null;
    if (offset === null) return null;
    const at = wall.toZonedDateTime("UTC").toInstant().subtract({ seconds: offset });
    return { kind: "timed", at, zone: null };
  }
  return { kind: "timed", at: wall.toZonedDateTime(fallbackZone).toInstant(), zone: fallbackZone };
}

/**
 * The property's value as written is a real date or time: ical.js rolls "month 13, day 45" over
 * into a later date, which a sender's typo (or a forged part) should not turn into a meeting.
 */
function writtenTimeIsReal(prop: ICAL.Property | null): boolean {
  const raw: unknown = prop?.jCal[3];
  if (typeof raw !== "string") return false;
  try {
    if (/^\d{4}-\d{2}-\d{2}$/.test(raw)) Temporal.PlainDate.from(raw);
    else Temporal.PlainDateTime.from(raw.replace(/Z$/i, ""));
    return true;
  } catch {
    return false;
  }
}

function statusOf(method: string, status: unknown): Invitation["status"] {
  if (method === "CANCEL") return "cancelled";
  const value = typeof status === "string" ? status.toUpperCase() : "";
  if (value === "CANCELLED") return "cancelled";
  if (value === "TENTATIVE") return "tentative";
  return "confirmed";
}

/** SEQUENCE as written (a non-negative integer), else 0 as RFC 5545 3.8.7.4 says. */
function sequenceOf(value: unknown): number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : 0;
}

/**
 * The first event of an iCalendar text as an invitation, or null when the text is too large,
 * not iCalendar, or holds no usable event. Floating times are read in `fallbackZone`.
 */
export function readInvitation(text: string, fallbackZone = "UTC"): Invitation | null {
  if (Buffer.byteLength(text, "utf8") > MAX_ICS_BYTES) return null;
  const zone = isValidTimeZone(fallbackZone) ? fallbackZone : "UTC";
  try {
    const parsed: unknown = ICAL.parse(text);
    // A text holding several VCALENDARs parses to a list; invitations carry one.
    const jcal = Array.isArray(parsed) && Array.isArray(parsed[0]) ? parsed[0] : parsed;
    const calendar = new ICAL.Component(jcal as unknown[]);
    if (calendar.name !== "vcalendar") return null;
    const vevent = calendar.getFirstSubcomponent("vevent");
    if (!vevent) return null;
    const dtstart = vevent.getFirstPropertyValue("dtstart");
    if (!(dtstart instanceof ICAL.Time) || !writtenTimeIsReal(vevent.getFirstProperty("dtstart")))
      return null;
    const startTzid = vevent.getFirstProperty("dtstart")?.getParameter("tzid");
    const start = whenOf(dtstart, startTzid, calendar, zone);
    if (!start) return null;

    const dtend = vevent.getFirstPropertyValue("dtend");
    const duration = vevent.getFirstPropertyValue("duration");
    let end: When | null = null;
    if (dtend instanceof ICAL.Time && writtenTimeIsReal(vevent.getFirstProperty("dtend")))
      end = whenOf(dtend, vevent.getFirstProperty("dtend")?.getParameter("tzid"), calendar, zone);
    else if (duration instanceof ICAL.Duration) {
      const later = dtstart.clone();
      later.addDuration(duration);
      end = whenOf(later, startTzid, calendar, zone);
    }
    const startValue = start.kind === "date" ? start.date : start.at.toString();
    let endValue: string;
    if (start.kind === "date") {
      // All-day: an exclusive end date after the start, else the one day (RFC 5545 3.6.1).
      const day = Temporal.PlainDate.from(start.date);
      endValue =
        end?.kind === "date" && Temporal.PlainDate.compare(end.date, day) > 0
          ? end.date
          : day.add({ days: 1 }).toString();
    } else {
      // A timed event without a later end lasts an hour here, so it can be put on a calendar.
      endValue =
        end?.kind === "timed" && Temporal.Instant.compare(end.at, start.at) > 0
          ? end.at.toString()
          : start.at.add({ hours: 1 }).toString();
    }

    const method = cleanText(calendar.getFirstPropertyValue("method"), 20).toUpperCase();
    const organizerProp = vevent.getFirstProperty("organizer");
    const organizer = organizerProp
      ? personOf(organizerProp.getFirstValue(), organizerProp.getParameter("cn"))
      : null;
    const attendees: InvitationPerson[] = [];
    for (const prop of vevent.getAllProperties("attendee")) {
      if (attendees.length >= MAX_PEOPLE) break;
      const person = personOf(prop.getFirstValue(), prop.getParameter("cn"));
      if (person && !attendees.some((a) => a.email === person.email)) attendees.push(person);
    }
    const recurrenceId = vevent.getFirstPropertyValue("recurrence-id");
    const occurrence =
      recurrenceId instanceof ICAL.Time
        ? whenOf(recurrenceId, vevent.getFirstProperty("recurrence-id")?.getParameter("tzid"), calendar, zone)
        : null;
    const title = cleanText(vevent.getFirstPropertyValue("summary"), MAX_TITLE);
    const location = cleanText(vevent.getFirstPropertyValue("location"), MAX_LOCATION);
    const description = cleanText(vevent.getFirstPropertyValue("description"), MAX_DESCRIPTION, true);
    return {
      uid: cleanText(vevent.getFirstPropertyValue("uid"), 300) || null,
      method: method === "" ? null : method,
      title: title === "" ? "(no title)" : title,
      start: startValue,
      end: endValue,
      allDay: start.kind === "date",
      timeZone: start.kind === "timed" ? start.zone : null,
      location: location === "" ? null : location,
      description: description === "" ? null : description,
      organizer,
      attendees,
      recurring: vevent.hasProperty("rrule") || vevent.hasProperty("rdate"),
      occurrence:
        occurrence === null ? null : occurrence.kind === "date" ? occurrence.date : occurrence.at.toString(),
      status: statusOf(method, vevent.getFirstPropertyValue("status")),
      sequence: sequenceOf(vevent.getFirstPropertyValue("sequence")),
    };
  } catch {
    return null;
  }
}
