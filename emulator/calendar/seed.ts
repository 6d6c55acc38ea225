import { Temporal } from "temporal-polyfill";
import { type Identity, SEEDED_IDENTITIES } from "../identities.ts";
import type { CalendarAttendee, CalendarPerson, CalendarStore, ResponseStatus } from "./store.ts";
import type { EventTime } from "./time.ts";

/** Where each demo person lives; their calendar's time zone. */
export const HOME_ZONES: Record<string, string> = {
  "alex.morgan@gmail.com": "America/New_York",
  "priya.shah@gmail.com": "Europe/London",
  "sam.taylor@gmail.com": "America/Los_Angeles",
  "jordan.lee@outlook.com": "America/New_York",
  "casey.kim@outlook.com": "Europe/Berlin",
};

export function homeZoneOf(email: string): string {
  return HOME_ZONES[email.toLowerCase()] ?? "UTC";
}

const people = SEEDED_IDENTITIES.map((identity) => ({ email: identity.email, name: identity.name }));

function person(index: number): CalendarPerson {
  const found = people[((index % people.length) + people.length) % people.length];
  if (found === undefined) throw new RangeError("no demo people");
  return found;
}

function attendees(
  organizer: CalendarPerson,
  others: readonly CalendarPerson[],
  self: CalendarPerson,
  selfResponse: ResponseStatus,
): CalendarAttendee[] {
  const list = new Map<string, CalendarAttendee>();
  list.set(organizer.email, { ...organizer, response: "accepted" });
  for (const other of others) {
    if (!list.has(other.email))
      list.set(other.email, { ...other, response: other.email === self.email ? selfResponse : "accepted" });
  }
  if (!list.has(self.email)) list.set(self.email, { ...self, response: selfResponse });
  return [...list.values()];
}

/**
 * A realistic calendar around the emulator clock: a daily standup with a cancelled and a moved
 * occurrence, a weekly 1:1, a monthly review kept in London time, a call held in Tokyo time, a
 * flight that starts and ends in different zones, all-day and multi-day events, two overlapping
 * meetings, a tentative lunch and a meeting its organizer cancelled. Attendees are the other demo
 * people, so the same meetings show up on their calendars too.
 */
export function seedCalendar(store: CalendarStore, identity: Identity, nowMs: number): void {
  const zone = store.timeZone;
  const calendarId = store.primary.id;
  const slot = Math.max(
    0,
    SEEDED_IDENTITIES.findIndex((seeded) => seeded.email === identity.email),
  );
  const self: CalendarPerson = { email: identity.email, name: identity.name };
  const today = Temporal.Instant.fromEpochMilliseconds(nowMs).toZonedDateTimeISO(zone).toPlainDate();
  const monday = today.subtract({ days: today.dayOfWeek - 1 });
  const day = (offset: number) => monday.add({ days: offset });
  const at = (date: Temporal.PlainDate, hhmm: string, timeZone = zone): EventTime => ({
    kind: "timed",
    local: `${date.toString()}T${hhmm}:00`,
    timeZone,
  });
  const allDay = (date: Temporal.PlainDate): EventTime => ({ kind: "date", date: date.toString() });
  const base = { calendarId, description: "", location: "", rrule: undefined, originalStart: undefined };
  const alex = person(0);
  const partner = person(slot + 1);
  const colleague = person(slot + 2);

  // Daily standup, organised by Alex for everyone, since two months ago and open-ended.
  const standupStart = day(-56);
  const standup = store.add(
    {
      ...base,
      summary: "Team standup",
      location: "Google Meet",
      start: at(standupStart, "09:30", "America/New_York"),
      end: at(standupStart, "09:45", "America/New_York"),
      rrule: "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
      status: "confirmed",
      organizer: alex,
      attendees: attendees(alex, people, self, "accepted"),
    },
    false,
  );
  // This week's Wednesday standup is cancelled; next Friday's moves to 10:00.
  store.cancelOccurrence(standup, at(day(2), "09:30", "America/New_York"), false);
  store.overrideOccurrence(
    standup,
    at(day(11), "09:30", "America/New_York"),
    { start: at(day(11), "10:00", "America/New_York"), end: at(day(11), "10:15", "America/New_York") },
    false,
  );

  store.add(
    {
      ...base,
      summary: `1:1 ${self.name?.split(" ")[0]} / ${partner.name?.split(" ")[0]}`,
      location: "Room 4B",
      start: at(day(-27), "14:00"),
      end: at(day(-27), "14:30"),
      rrule: "FREQ=WEEKLY;BYDAY=TU",
      status: "confirmed",
      organizer: self,
      attendees: attendees(self, [partner], self, "accepted"),
    },
    false,
  );

  store.add(
    {
      ...base,
      summary: "Monthly product review",
      location: "London office, Thames room",
      start: at(day(-60), "16:00", "Europe/London"),
      end: at(day(-60), "17:00", "Europe/London"),
      rrule: "FREQ=MONTHLY;BYDAY=1TH",
      status: "confirmed",
      organizer: person(1),
      attendees: attendees(person(1), [alex, colleague], self, "accepted"),
    },
    false,
  );

  store.add(
    {
      ...base,
      summary: "Call with the Tokyo office",
      location: "Zoom",
      start: at(day(9), "09:00", "Asia/Tokyo"),
      end: at(day(9), "10:00", "Asia/Tokyo"),
      status: "confirmed",
      organizer: self,
      attendees: attendees(self, [colleague], self, "accepted"),
    },
    false,
  );

  store.add(
    {
      ...base,
      summary: "Flight to Berlin",
      location: "JFK Terminal 4",
      start: at(day(17), "18:00", "America/New_York"),
      end: at(day(18), "08:10", "Europe/Berlin"),
      status: "confirmed",
      organizer: self,
      attendees: [],
    },
    false,
  );

  // Two meetings tomorrow that overlap by half an hour.
  const tomorrow = today.add({ days: 1 });
  store.add(
    {
      ...base,
      summary: "Design sync",
      location: "Room 2A",
      start: at(tomorrow, "11:00"),
      end: at(tomorrow, "12:00"),
      status: "confirmed",
      organizer: colleague,
      attendees: attendees(colleague, [partner], self, "accepted"),
    },
    false,
  );
  store.add(
    {
      ...base,
      summary: "Budget review",
      location: "Finance corner",
      start: at(tomorrow, "11:30"),
      end: at(tomorrow, "12:30"),
      status: "confirmed",
      organizer: self,
      attendees: attendees(self, [alex], self, "accepted"),
    },
    false,
  );

  store.add(
    {
      ...base,
      summary: `Lunch with ${colleague.name?.split(" ")[0]}`,
      location: "Corner café",
      start: at(today.add({ days: 2 }), "12:30"),
      end: at(today.add({ days: 2 }), "13:30"),
      status: "tentative",
      organizer: colleague,
      attendees: attendees(colleague, [], self, "tentative"),
    },
    false,
  );

  store.add(
    {
      ...base,
      summary: "Quarterly planning",
      location: "Board room",
      start: at(today.add({ days: 3 }), "15:00"),
      end: at(today.add({ days: 3 }), "16:00"),
      status: "cancelled",
      organizer: partner,
      attendees: attendees(partner, [alex], self, "accepted"),
    },
    false,
  );

  store.add(
    {
      ...base,
      summary: "Company offsite",
      location: "Lake house",
      start: allDay(day(10)),
      end: allDay(day(12)),
      status: "confirmed",
      organizer: alex,
      attendees: attendees(alex, people, self, "accepted"),
    },
    false,
  );
  store.add(
    {
      ...base,
      summary: `${partner.name?.split(" ")[0]}'s birthday`,
      start: allDay(today.add({ days: 6 })),
      end: allDay(today.add({ days: 7 })),
      rrule: "FREQ=YEARLY",
      status: "confirmed",
      organizer: self,
      attendees: [],
    },
    false,
  );
  store.add(
    {
      ...base,
      summary: "Out of office",
      start: allDay(day(21)),
      end: allDay(day(26)),
      status: "confirmed",
      organizer: self,
      attendees: [],
    },
    false,
  );
  store.add(
    {
      ...base,
      summary: "Dentist",
      location: "Smile Dental",
      start: at(day(-5), "08:00"),
      end: at(day(-5), "08:45"),
      status: "confirmed",
      organizer: self,
      attendees: [],
    },
    false,
  );

  const holidays = store.calendars.find((calendar) => !calendar.primary);
  if (holidays !== undefined) {
    const year = today.year;
    for (const [summary, date] of [
      ["New Year's Day", `${year + 1}-01-01`],
      ["Independence Day", `${year}-07-04`],
      ["Christmas Day", `${year}-12-25`],
    ] as const) {
      const plain = Temporal.PlainDate.from(date);
      store.add(
        {
          ...base,
          calendarId: holidays.id,
          summary,
          start: allDay(plain),
          end: allDay(plain.add({ days: 1 })),
          status: "confirmed",
          organizer: { email: holidays.id, name: holidays.summary },
          attendees: [],
        },
        false,
      );
    }
  }
}
