import { describe, expect, it } from "vitest";
import { readInvitation } from "./ics.ts";
import { invitationReplyIcs } from "./imip-reply.ts";

const unfold = (text: string) => text.replace(/\r\n[ \t]/g, "");

function invitationOf(...lines: string[]) {
  const invitation = readInvitation(
    `${[
      "BEGIN:VCALENDAR",
      "VERSION:2.0",
      "METHOD:REQUEST",
      "BEGIN:VEVENT",
      "UID:series-1@example.com",
      "SEQUENCE:2",
      "ORGANIZER;CN=Priya:mailto:priya.shah@gmail.com",
      "ATTENDEE:mailto:alex.morgan@gmail.com",
      "SUMMARY:Weekly sync",
      ...lines,
      "END:VEVENT",
      "END:VCALENDAR",
    ].join("\r\n")}\r\n`,
  );
  if (!invitation?.uid || !invitation.organizer) throw new Error("not an invitation");
  return { ...invitation, uid: invitation.uid, organizer: invitation.organizer };
}

const reply = (invitation: ReturnType<typeof invitationOf>) =>
  unfold(
    invitationReplyIcs({
      invitation,
      attendee: { email: "alex.morgan@gmail.com", name: "Alex" },
      answer: "declined",
      now: new Date("2027-06-01T08:00:00Z"),
    }),
  );

describe("invitationReplyIcs", () => {
  it("answers a whole series without RECURRENCE-ID", () => {
    const text = reply(invitationOf("DTSTART:20270705T090000Z", "RRULE:FREQ=WEEKLY"));
    expect(text).toContain("METHOD:REPLY");
    expect(text).toContain("UID:series-1@example.com");
    expect(text).toContain("SEQUENCE:2");
    expect(text).toMatch(/ATTENDEE;PARTSTAT=DECLINED;CN=Alex:mailto:alex.morgan@gmail.com/);
    expect(text).not.toContain("RECURRENCE-ID");
  });

  it("answers one occurrence with its RECURRENCE-ID, timed or all-day", () => {
    const timed = reply(
      invitationOf(
        "DTSTART;TZID=Europe/London:20270706T110000",
        "RECURRENCE-ID;TZID=Europe/London:20270705T100000",
      ),
    );
    expect(timed).toContain("RECURRENCE-ID:20270705T090000Z");
    const allDay = reply(invitationOf("DTSTART;VALUE=DATE:20270302", "RECURRENCE-ID;VALUE=DATE:20270301"));
    expect(allDay).toContain("RECURRENCE-ID;VALUE=DATE:20270301");
    const back = readInvitation(timed);
    expect(back?.occurrence).toBe("2027-07-05T09:00:00Z");
  });
});
