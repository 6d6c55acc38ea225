import { Temporal } from "temporal-polyfill";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emailInvitationResponseSchema, invitationResponseSchema } from "../../contract/calendar.ts";
import { emailListResponseSchema } from "../../contract/mail.ts";
import { type AuthFixture, PEOPLE, startAuthFixture } from "../test/auth-fixture.ts";
import { connectCalendarOverHttp } from "../test/calendar-connect.ts";

/**
 * Yes / Maybe / No on invitations, over real HTTP on a real server, with the emulator as both
 * providers: organizers there send real invitations (their events, mailed with sendUpdates=all),
 * and afterwards the organizer's own event shows the answer, as it would at Google or Microsoft.
 * The answer path does not depend on the database backend; PGlite keeps the file quick.
 */

type Provider = "google" | "microsoft";

describe("answering invitations", () => {
  let f: AuthFixture;
  const session: Record<string, string> = {};
  const day = Temporal.Now.plainDateISO("UTC").add({ days: 9 }).toString();

  async function invite(organizer: string, provider: Provider, summary: string, guests: string[]) {
    const made = await fetch(`${f.emulator.url}/_admin/calendars/${organizer}/events?provider=${provider}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        summary,
        start: { local: `${day}T10:00:00`, timeZone: "UTC" },
        end: { local: `${day}T11:00:00`, timeZone: "UTC" },
        attendees: guests.map((email) => ({ email })),
        sendUpdates: "all",
      }),
    });
    expect(made.status).toBe(201);
  }

  /** How the organizer's own event records `guest`'s answer. */
  async function answerSeenBy(organizer: string, provider: Provider, summary: string, guest: string) {
    const calendar = (await (
      await fetch(`${f.emulator.url}/_admin/calendars/${organizer}?provider=${provider}`)
    ).json()) as { events: { summary: string; attendees: { email: string; response: string }[] }[] };
    return calendar.events
      .find((e) => e.summary === summary)
      ?.attendees.find((a) => a.email.toLowerCase() === guest)?.response;
  }

  /** The raw mails in a mailbox whose subject starts with `subject`. */
  async function mailsOf(email: string, provider: Provider, subject: string): Promise<string[]> {
    const box = (await (
      await fetch(`${f.emulator.url}/_admin/mailboxes/${email}?provider=${provider}&limit=1000`)
    ).json()) as { messages: { id: string; subject: string }[] };
    const raws: string[] = [];
    for (const m of box.messages.filter((m) => m.subject.startsWith(subject))) {
      const one = (await (
        await fetch(`${f.emulator.url}/_admin/mailboxes/${email}/messages/${m.id}?provider=${provider}`)
      ).json()) as { raw: string };
      raws.push(one.raw);
    }
    return raws;
  }

  async function emailId(token: string, subject: string): Promise<string> {
    for (let i = 0; i < 150; i += 1) {
      const list = emailListResponseSchema.parse(
        (await f.api("GET", "/api/emails?limit=50", { token })).json,
      ).emails;
      const found = list.find((e) => e.subject.startsWith(subject));
      if (found) return found.id;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`never synced: ${subject}`);
  }

  function answer(token: string, id: string, response: unknown) {
    return f.api("POST", `/api/emails/${id}/invitation/response`, { token, body: { response } });
  }

  /** Wednesday's weekly sync, mailed as the series to Casey, then its second occurrence moved. */
  let series = { uid: "", occurrence: "" };
  async function inviteToOccurrence() {
    const made = await fetch(`${f.emulator.url}/_admin/calendars/${PEOPLE.priya}/events?provider=google`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        summary: "Weekly sync",
        start: { local: `${day}T10:00:00`, timeZone: "UTC" },
        end: { local: `${day}T11:00:00`, timeZone: "UTC" },
        rrule: "FREQ=WEEKLY;COUNT=4",
        attendees: [{ email: PEOPLE.casey }],
        sendUpdates: "all",
      }),
    });
    expect(made.status).toBe(201);
    const { uid } = (await made.json()) as { uid: string };
    const second = Temporal.PlainDate.from(day).add({ days: 7 }).toString().replaceAll("-", "");
    const ics = [
      "BEGIN:VCALENDAR",
      "VERSION:2.0",
      "PRODID:-//Google Inc//Google Calendar 70.9054//EN",
      "METHOD:REQUEST",
      "BEGIN:VEVENT",
      `DTSTART:${second}T140000Z`,
      `DTEND:${second}T150000Z`,
      `RECURRENCE-ID:${second}T100000Z`,
      "DTSTAMP:20260101T000000Z",
      'ORGANIZER;CN="Priya Shah":mailto:priya.shah@gmail.com',
      `UID:${uid}`,
      `ATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:${PEOPLE.casey}`,
      "SUMMARY:Weekly sync (moved)",
      "SEQUENCE:1",
      "END:VEVENT",
      "END:VCALENDAR",
      "",
    ].join("\r\n");
    const raw = [
      "From: Priya Shah <priya.shah@gmail.com>",
      `To: ${PEOPLE.casey}`,
      "Subject: Updated invitation: Weekly sync (moved)",
      "MIME-Version: 1.0",
      'Content-Type: multipart/mixed; boundary="b1"',
      "",
      "--b1",
      'Content-Type: text/plain; charset="UTF-8"',
      "",
      "Priya moved next week's sync to 14:00.",
      "--b1",
      'Content-Type: application/ics; name="invite.ics"',
      'Content-Disposition: attachment; filename="invite.ics"',
      "Content-Transfer-Encoding: base64",
      "",
      Buffer.from(ics, "utf8").toString("base64"),
      "--b1--",
      "",
    ].join("\r\n");
    const mailed = await fetch(
      `${f.emulator.url}/_admin/mailboxes/${PEOPLE.casey}/messages?provider=microsoft`,
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ raw }),
      },
    );
    expect(mailed.status).toBe(201);
    return { uid, occurrence: `${second}T100000Z` };
  }

  beforeAll(async () => {
    // Role "all": this server also works the sign-in's sync jobs, which bring the invitations in.
    f = await startAuthFixture("pglite", {}, { seedCorpus: false }, { role: "all" });
    await invite(PEOPLE.priya, "google", "Garden party", [PEOPLE.alex]);
    await invite(PEOPLE.jordan, "microsoft", "Vendor sync", [PEOPLE.casey]);
    await invite(PEOPLE.priya, "google", "Book club", [PEOPLE.sam, PEOPLE.jordan]);
    await invite(PEOPLE.priya, "google", "Picnic", [PEOPLE.alex]);
    series = await inviteToOccurrence();
    const plain = await fetch(`${f.emulator.url}/_admin/mailboxes/${PEOPLE.sam}/messages?provider=google`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        raw: "From: Kim <kim@example.com>\r\nTo: sam.taylor@gmail.com\r\nSubject: Just a note\r\n\r\nHello\r\n",
      }),
    });
    expect(plain.status).toBe(201);
    session.alex = await f.signIn("gmail", PEOPLE.alex);
    session.casey = await f.signIn("outlook", PEOPLE.casey);
    session.sam = await f.signIn("gmail", PEOPLE.sam);
    session.jordan = await f.signIn("outlook", PEOPLE.jordan);
  });
  afterAll(async () => {
    await f?.close();
  });

  it("on a connected Google calendar: the answer is recorded there and reaches the organizer", async () => {
    const token = session.alex ?? "";
    const connected = await connectCalendarOverHttp(f.server.url, token, "google", { pick: PEOPLE.alex });
    expect(connected.landing).toBe("/dashboard?calendar=connected&provider=google");
    const id = await emailId(token, "Invitation: Garden party");
    const answered = await answer(token, id, "tentative");
    expect(answered.status, answered.text).toBe(200);
    expect(invitationResponseSchema.parse(answered.json)).toEqual({
      response: "tentative",
      via: "calendar",
      from: PEOPLE.alex,
      organizer: PEOPLE.priya,
    });
    expect(await answerSeenBy(PEOPLE.priya, "google", "Garden party", PEOPLE.alex)).toBe("tentative");
    const [reply] = await mailsOf(PEOPLE.priya, "google", "Tentatively accepted: Garden party");
    expect(reply).toContain("METHOD:REPLY");
  });

  it("on a connected Outlook calendar: accept/decline through Graph reaches the organizer", async () => {
    const token = session.casey ?? "";
    await connectCalendarOverHttp(f.server.url, token, "outlook", { pick: PEOPLE.casey });
    const id = await emailId(token, "Invitation: Vendor sync");
    const answered = await answer(token, id, "declined");
    expect(answered.status, answered.text).toBe(200);
    expect(answered.json).toMatchObject({ via: "calendar", from: PEOPLE.casey, organizer: PEOPLE.jordan });
    expect(await answerSeenBy(PEOPLE.jordan, "microsoft", "Vendor sync", PEOPLE.casey)).toBe("declined");
  });

  it.each([
    ["Gmail", "sam", PEOPLE.sam, "accepted", "ACCEPTED", "Accepted"],
    ["Outlook", "jordan", PEOPLE.jordan, "declined", "DECLINED", "Declined"],
  ] as const)(
    "without a calendar, a %s mailbox mails an iMIP reply the organizer's calendar applies",
    async (_name, who, email, response, partstat, verb) => {
      const token = session[who] ?? "";
      const id = await emailId(token, "Invitation: Book club");
      expect(await answerSeenBy(PEOPLE.priya, "google", "Book club", email)).toBe("needsAction");
      const answered = await answer(token, id, response);
      expect(answered.status, answered.text).toBe(200);
      expect(answered.json).toEqual({ response, via: "email", from: email, organizer: PEOPLE.priya });
      expect(await answerSeenBy(PEOPLE.priya, "google", "Book club", email)).toBe(response);
      const [reply, ...more] = (await mailsOf(PEOPLE.priya, "google", `${verb}: Book club`)).filter((raw) =>
        raw.includes(email),
      );
      expect(more).toEqual([]);
      expect(reply).toMatch(/Content-Type: text\/calendar; charset="UTF-8"; method=REPLY/);
      const unfolded = reply?.replace(/\r\n[ \t]/g, "") ?? "";
      expect(unfolded).toMatch(new RegExp(`ATTENDEE;PARTSTAT=${partstat}[^\\r\\n]*:mailto:${email}`, "i"));
      expect(unfolded).toMatch(/SEQUENCE:0/);
      const [invitation] = await mailsOf(
        email,
        who === "sam" ? "google" : "microsoft",
        "Invitation: Book club",
      );
      const uid = /UID:(\S+)/.exec(invitation ?? "")?.[1];
      expect(unfolded).toContain(`UID:${uid}`);
    },
  );

  it("keeps the answer: the invitation read again (a reload) carries it", async () => {
    const alex = session.alex ?? "";
    const garden = await emailId(alex, "Invitation: Garden party");
    const again = await f.api("GET", `/api/emails/${garden}/invitation?tz=UTC`, { token: alex });
    expect(again.status, again.text).toBe(200);
    expect(emailInvitationResponseSchema.parse(again.json).answer).toEqual({
      response: "tentative",
      via: "calendar",
      from: PEOPLE.alex,
      organizer: PEOPLE.priya,
    });
    const jordan = session.jordan ?? "";
    const book = await emailId(jordan, "Invitation: Book club");
    const read = emailInvitationResponseSchema.parse(
      (await f.api("GET", `/api/emails/${book}/invitation`, { token: jordan })).json,
    );
    expect(read.invitation?.title).toBe("Book club");
    expect(read.answer).toEqual({
      response: "declined",
      via: "email",
      from: PEOPLE.jordan,
      organizer: PEOPLE.priya,
    });
    // A new answer replaces the kept one.
    expect((await answer(jordan, book, "tentative")).status).toBe(200);
    const changed = emailInvitationResponseSchema.parse(
      (await f.api("GET", `/api/emails/${book}/invitation`, { token: jordan })).json,
    );
    expect(changed.answer?.response).toBe("tentative");
    // Nobody else's answer shows: Sam answered Book club too, from his own mail.
    const sam = session.sam ?? "";
    const samsBook = await emailId(sam, "Invitation: Book club");
    const samRead = emailInvitationResponseSchema.parse(
      (await f.api("GET", `/api/emails/${samsBook}/invitation`, { token: sam })).json,
    );
    expect(samRead.answer).toMatchObject({ response: "accepted", from: PEOPLE.sam });
  });

  it("a calendar that refuses the answer for good: the iMIP reply by mail reaches the organizer", async () => {
    const token = session.alex ?? "";
    const id = await emailId(token, "Invitation: Picnic");
    // Alex's Google calendar (connected by the first test) holds the event only as an .ics imported by hand: same UID, Alex not a guest
    // of it, so Google cannot record Alex's answer there.
    const calendar = (await (
      await fetch(`${f.emulator.url}/_admin/calendars/${PEOPLE.alex}?provider=google`)
    ).json()) as { events: { id: string; uid: string; summary: string; organizer: string }[] };
    const copy = calendar.events.find((e) => e.summary === "Picnic" && e.organizer === PEOPLE.priya);
    expect(copy).toBeDefined();
    const removed = await fetch(
      `${f.emulator.url}/_admin/calendars/${PEOPLE.alex}/events/${copy?.id}?provider=google`,
      { method: "DELETE" },
    );
    expect(removed.status).toBe(204);
    const imported = await fetch(`${f.emulator.url}/_admin/calendars/${PEOPLE.alex}/events?provider=google`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        summary: "Picnic",
        uid: copy?.uid,
        start: { local: `${day}T10:00:00`, timeZone: "UTC" },
        end: { local: `${day}T11:00:00`, timeZone: "UTC" },
      }),
    });
    expect(imported.status).toBe(201);

    const answered = await answer(token, id, "accepted");
    expect(answered.status, answered.text).toBe(200);
    expect(answered.json).toEqual({
      response: "accepted",
      via: "email",
      from: PEOPLE.alex,
      organizer: PEOPLE.priya,
    });
    expect(await answerSeenBy(PEOPLE.priya, "google", "Picnic", PEOPLE.alex)).toBe("accepted");
    const [reply, ...more] = await mailsOf(PEOPLE.priya, "google", "Accepted: Picnic");
    expect(more).toEqual([]);
    expect(reply).toContain("METHOD:REPLY");
    expect(reply?.replace(/\r\n[ \t]/g, "")).toContain(`UID:${copy?.uid}`);
  });

  it("an invitation to one occurrence is answered for that occurrence only", async () => {
    // Casey's Outlook calendar (connected above) holds the series: answering there would answer
    // all of it, so the answer goes by mail, naming the occurrence.
    const token = session.casey ?? "";
    const id = await emailId(token, "Updated invitation: Weekly sync (moved)");
    const answered = await answer(token, id, "declined");
    expect(answered.status, answered.text).toBe(200);
    expect(answered.json).toMatchObject({ via: "email", from: PEOPLE.casey, organizer: PEOPLE.priya });
    const [reply, ...more] = await mailsOf(PEOPLE.priya, "google", "Declined: Weekly sync (moved)");
    expect(more).toEqual([]);
    expect(reply?.replace(/\r\n[ \t]/g, "")).toContain(`RECURRENCE-ID:${series.occurrence}`);
    const calendar = (await (
      await fetch(`${f.emulator.url}/_admin/calendars/${PEOPLE.priya}?provider=google`)
    ).json()) as {
      events: {
        id: string;
        uid: string;
        recurringEventId: string | null;
        attendees: { email: string; response: string }[];
      }[];
    };
    const mine = calendar.events.filter((e) => e.uid === series.uid);
    const master = mine.find((e) => e.recurringEventId === null);
    const exception = mine.find((e) => e.recurringEventId === master?.id);
    expect(master?.attendees).toContainEqual({ email: PEOPLE.casey, response: "needsAction" });
    expect(exception?.attendees).toContainEqual({ email: PEOPLE.casey, response: "declined" });
  });

  it("refuses what cannot be answered with a 4xx JSON error", async () => {
    const sam = session.sam ?? "";
    const id = await emailId(sam, "Invitation: Book club");
    const maybe = await answer(sam, id, "maybe");
    expect(maybe.status).toBe(400);
    expect(maybe.json?.error).toMatchObject({ code: "validation_failed" });
    // Somebody else's email is no email at all.
    const stranger = await answer(session.alex ?? "", id, "accepted");
    expect(stranger.status).toBe(404);
    expect((await answer(sam, "not-an-id", "accepted")).status).toBe(404);
    const note = await answer(sam, await emailId(sam, "Just a note"), "accepted");
    expect(note.status).toBe(400);
    expect(note.json?.error).toMatchObject({ code: "bad_request" });
    expect(
      (await f.api("POST", `/api/emails/${id}/invitation/response`, { body: { response: "accepted" } }))
        .status,
    ).toBe(401);
  });
});
