import { describe, expect, it } from "vitest";
import { W_EUROPE_VTIMEZONE } from "../test/outlook-vtimezone.ts";
import { cleanText, MAX_ICS_BYTES, readInvitation } from "./ics.ts";

const ics = (...lines: string[]) => `${lines.join("\r\n")}\r\n`;

const event = (...lines: string[]) =>
  ics(
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "METHOD:REQUEST",
    "BEGIN:VEVENT",
    "UID:u1@x",
    ...lines,
    "END:VEVENT",
    "END:VCALENDAR",
  );

describe("readInvitation", () => {
  it("reads a Google invitation (UTC times, organizer, guests, escaped text)", () => {
    const invitation = readInvitation(
      event(
        "DTSTART:20261203T150000Z",
        "DTEND:20261203T160000Z",
        'ORGANIZER;CN="Priya Shah":mailto:priya.shah@gmail.com',
        "ATTENDEE;CN=Alex;PARTSTAT=NEEDS-ACTION:mailto:Alex.Morgan@gmail.com",
        "ATTENDEE;CN=Alex again:mailto:alex.morgan@gmail.com",
        "ATTENDEE:mailto:not an address",
        "SUMMARY:Roadmap review\\, Q1",
        "LOCATION:Room 2",
        "DESCRIPTION:First line\\nSecond line",
      ),
    );
    expect(invitation).toEqual({
      uid: "u1@x",
      method: "REQUEST",
      title: "Roadmap review, Q1",
      start: "2026-12-03T15:00:00Z",
      end: "2026-12-03T16:00:00Z",
      allDay: false,
      timeZone: null,
      location: "Room 2",
      description: "First line\nSecond line",
      organizer: { email: "priya.shah@gmail.com", name: "Priya Shah" },
      attendees: [{ email: "alex.morgan@gmail.com", name: "Alex" }],
      recurring: false,
      sequence: 0,
      status: "confirmed",
    });
  });

  it("places Outlook's Windows zone names by their VTIMEZONE, across daylight saving", () => {
    const outlook = (date: string) =>
      ics(
        "BEGIN:VCALENDAR",
        "METHOD:REQUEST",
        ...W_EUROPE_VTIMEZONE,
        "BEGIN:VEVENT",
        `DTSTART;TZID=W. Europe Standard Time:${date}T100000`,
        `DTEND;TZID=W. Europe Standard Time:${date}T103000`,
        "SUMMARY:Sync",
        "END:VEVENT",
        "END:VCALENDAR",
      );
    expect(readInvitation(outlook("20270115"))).toMatchObject({
      start: "2027-01-15T09:00:00Z",
      end: "2027-01-15T09:30:00Z",
    });
    expect(readInvitation(outlook("20270715"))).toMatchObject({ start: "2027-07-15T08:00:00Z" });
  });

  it("places IANA zones without a VTIMEZONE, and floating times in the reader's zone", () => {
    const winter = readInvitation(
      event("DTSTART;TZID=America/New_York:20270110T093000", "DURATION:PT45M", "SUMMARY:A"),
    );
    expect(winter).toMatchObject({
      start: "2027-01-10T14:30:00Z",
      end: "2027-01-10T15:15:00Z",
      timeZone: "America/New_York",
    });
    const summer = readInvitation(event("DTSTART;TZID=America/New_York:20270710T093000", "SUMMARY:A"));
    // No end: an hour, so it can go on a calendar.
    expect(summer).toMatchObject({ start: "2027-07-10T13:30:00Z", end: "2027-07-10T14:30:00Z" });
    const floating = readInvitation(event("DTSTART:20270710T093000", "DTEND:20270710T100000"), "Asia/Tokyo");
    expect(floating).toMatchObject({ start: "2027-07-10T00:30:00Z", timeZone: "Asia/Tokyo" });
  });

  it("reads all-day events (end exclusive), recurrence and cancellations", () => {
    expect(
      readInvitation(event("DTSTART;VALUE=DATE:20270301", "DTEND;VALUE=DATE:20270303", "SUMMARY:Offsite")),
    ).toMatchObject({ start: "2027-03-01", end: "2027-03-03", allDay: true, timeZone: null });
    expect(readInvitation(event("DTSTART;VALUE=DATE:20270301", "SUMMARY:Holiday"))).toMatchObject({
      end: "2027-03-02",
    });
    expect(
      readInvitation(event("DTSTART:20270301T100000Z", "RRULE:FREQ=WEEKLY;COUNT=4", "SUMMARY:Weekly")),
    ).toMatchObject({ recurring: true });
    const cancel = ics(
      "BEGIN:VCALENDAR",
      "METHOD:CANCEL",
      "BEGIN:VEVENT",
      "DTSTART:20270301T100000Z",
      "SUMMARY:Gone",
      "END:VEVENT",
      "END:VCALENDAR",
    );
    expect(readInvitation(cancel)).toMatchObject({ method: "CANCEL", status: "cancelled" });
    expect(readInvitation(event("DTSTART:20270301T100000Z", "STATUS:TENTATIVE"))).toMatchObject({
      status: "tentative",
      title: "(no title)",
    });
  });

  it("gives null, never an exception, for anything that is not a usable invitation", () => {
    const hostile = [
      "",
      "garbage",
      "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n",
      ics("BEGIN:VCALENDAR", "BEGIN:VEVENT", "SUMMARY:No start", "END:VEVENT", "END:VCALENDAR"),
      event("DTSTART:20271345T990000Z"),
      event("DTSTART;TZID=Nowhere/Land:20270301T100000"),
      ics("BEGIN:VCARD", "FN:Not a calendar", "END:VCARD"),
      `${"BEGIN:VEVENT\r\n".repeat(15_000)}`,
      event("DTSTART:20270301T100000Z", `SUMMARY:${"x".repeat(MAX_ICS_BYTES)}`),
    ];
    for (const text of hostile) expect(readInvitation(text), text.slice(0, 60)).toBeNull();
  });

  it("cleans every text: no control or direction-override characters, bounded lengths, many guests cut", () => {
    const guests = Array.from({ length: 80 }, (_, i) => `ATTENDEE:mailto:guest${i}@example.com`);
    const invitation = readInvitation(
      event(
        "DTSTART:20270301T100000Z",
        `SUMMARY:Pay\u202enow\u0007 <script>alert(1)</script> ${"long ".repeat(200)}`,
        `LOCATION:${"Room ".repeat(200)}`,
        ...guests,
      ),
    );
    expect(invitation?.title).not.toContain("\u202e");
    expect(invitation?.title).not.toContain("\u0007");
    expect(invitation?.title.startsWith("Paynow <script>alert(1)</script>")).toBe(true);
    expect(invitation?.title.length).toBeLessThanOrEqual(500);
    expect(invitation?.location?.length).toBeLessThanOrEqual(500);
    expect(invitation?.attendees).toHaveLength(50);
  });
});

describe("cleanText", () => {
  it("keeps lines only where asked, and is empty for non-strings", () => {
    expect(cleanText("a\r\n\r\n\r\n\r\nb\tc", 100, true)).toBe("a\n\nb\tc");
    expect(cleanText("a\nb", 100)).toBe("a b");
    expect(cleanText(42, 100)).toBe("");
    expect(cleanText("abcdef", 4)).toBe("abc…");
  });
});
