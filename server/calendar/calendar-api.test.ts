import { eq } from "drizzle-orm";
import { Temporal } from "temporal-polyfill";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type CalendarEvent,
  type CalendarProvider,
  calendarEventsResponseSchema,
  calendarIntegrationsResponseSchema,
  calendarSyncResponseSchema,
} from "../../contract/calendar.ts";
import { calendarEvents, calendarIntegrations } from "../db/schema.ts";
import { type AuthFixture, PEOPLE, startAuthFixture } from "../test/auth-fixture.ts";
import { connectCalendarOverHttp, navigate } from "../test/calendar-connect.ts";
import { BACKENDS } from "../test/databases.ts";

/**
 * The calendar API over real HTTP on a real server and database, with calendars connected
 * through the emulator's consent pages exactly as a browser would (ticket, flow cookie, state).
 */

describe.each(BACKENDS)("calendar API on %s", (kind) => {
  let f: AuthFixture;
  let token: string;
  let outlookToken: string;
  const tz = "America/New_York";

  /** POST /api/calendar/connect, then the navigation, the consent and the callback. */
  function connect(
    provider: CalendarProvider,
    email: string,
    options: { session?: string; pick?: string; accountId?: string } = {},
  ) {
    return connectCalendarOverHttp(f.server.url, options.session ?? token, provider, {
      pick: options.pick ?? email,
      hint: email,
      ...(options.accountId ? { accountId: options.accountId } : {}),
    });
  }

  async function events(query: string, session = token) {
    return f.api("GET", `/api/calendar/events?${query}`, { token: session });
  }

  async function eventsUntil(query: string, predicate: (list: CalendarEvent[]) => boolean, session = token) {
    for (let i = 0; i < 100; i += 1) {
      const answer = await events(query, session);
      const list = calendarEventsResponseSchema.parse(answer.json).events;
      if (predicate(list)) return list;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`events never matched for ${query}`);
  }

  const today = () => Temporal.Now.plainDateISO(tz).toString();

  /** The raw invitation mails (text/calendar METHOD:REQUEST) for `title` in a person's mailbox. */
  async function invitationsTo(email: string, provider: "google" | "microsoft", title: string) {
    const box = (await (
      await fetch(`${f.emulator.url}/_admin/mailboxes/${email}?provider=${provider}&limit=1000`)
    ).json()) as { messages: { id: string; subject: string }[] };
    const raws: string[] = [];
    for (const m of box.messages.filter((m) => m.subject.startsWith(`Invitation: ${title} @`))) {
      const one = (await (
        await fetch(`${f.emulator.url}/_admin/mailboxes/${email}/messages/${m.id}?provider=${provider}`)
      ).json()) as { raw: string };
      if (/Content-Type: text\/calendar;[^\r\n]*method=REQUEST/i.test(one.raw)) raws.push(one.raw);
    }
    return raws;
  }

  beforeAll(async () => {
    f = await startAuthFixture(kind, {}, { seedCorpus: false });
    token = await f.signIn("gmail", PEOPLE.alex);
    outlookToken = await f.signIn("outlook", PEOPLE.casey);
  });
  afterAll(async () => {
    await f?.close();
  });

  it("lists each mailbox's calendar as not connected, and answers no events before one is", async () => {
    const list = calendarIntegrationsResponseSchema.parse(
      (await f.api("GET", "/api/calendar/integrations", { token })).json,
    );
    expect(list).toEqual([
      expect.objectContaining({ provider: "google", isConnected: false, email: PEOPLE.alex, id: null }),
    ]);
    const answer = await events(`date=${today()}&view=week&tz=${tz}`);
    expect(answer.status).toBe(200);
    expect(calendarEventsResponseSchema.parse(answer.json).events).toEqual([]);
    expect((await f.api("GET", "/api/calendar/integrations")).status).toBe(401);
  });

  it("refuses bad input with 400", async () => {
    for (const query of [
      "view=week",
      "date=2026-02-30&view=week",
      "date=tomorrow&view=day",
      `date=${today()}&view=year`,
      `date=${today()}&view=day&tz=Mars/Olympus`,
    ]) {
      const answer = await events(query);
      expect(answer.status, query).toBe(400);
      expect(answer.json?.error).toMatchObject({ code: "validation_failed" });
    }
    const bad = await f.api("POST", "/api/calendar/connect", { token, body: { provider: "yahoo" } });
    expect(bad.status).toBe(400);
  });

  it("connects Google Calendar by ticket and consent, and shows the seeded events in the person's zone", async () => {
    const { landing, ticketUrl, cookie } = await connect("google", PEOPLE.alex);
    expect(landing).toBe("/dashboard?calendar=connected&provider=google");
    expect(ticketUrl).not.toContain(token);
    // The ticket is single use.
    const replay = await navigate(`${f.server.url}${ticketUrl}`, cookie);
    expect(replay.location).toMatch(/^\/dashboard\?calendar=error/);

    const list = calendarIntegrationsResponseSchema.parse(
      (await f.api("GET", "/api/calendar/integrations", { token })).json,
    );
    expect(list[0]).toMatchObject({ isConnected: true, status: "active", provider: "google" });
    const [row] = await f.database.database.db.select().from(calendarIntegrations);
    expect(row?.scope).toContain("calendar.events");
    expect(row?.scope).not.toContain("gmail");
    expect(row?.accessTokenCiphertext).toMatch(/^v1\./);

    const week = await eventsUntil(`date=${today()}&view=week&tz=${tz}`, (l) =>
      l.some((e) => e.title === "Team standup"),
    );
    const standups = week.filter((e) => e.title === "Team standup");
    expect(standups.length).toBeGreaterThanOrEqual(4);
    expect(standups.every((e) => e.provider === "google" && e.recurring && !e.allDay)).toBe(true);
    // 09:30 in New York on every weekday it happens.
    for (const e of standups.filter((s) => s.status !== "cancelled" && s.start.length > 10)) {
      const local = Temporal.Instant.from(e.start).toZonedDateTimeISO(tz).toPlainTime().toString();
      expect(["09:30:00", "10:00:00"]).toContain(local);
    }
    expect(week.some((e) => e.title === "Team standup" && e.status === "cancelled")).toBe(true);
    const attendees = standups[0]?.attendees.map((a) => a.email) ?? [];
    expect(attendees).toEqual(expect.arrayContaining([PEOPLE.priya, PEOPLE.jordan, PEOPLE.casey]));

    const month = await eventsUntil(`date=${today()}&view=month&tz=${tz}`, (l) => l.length > 0);
    expect(month.some((e) => e.allDay && e.title === "Company offsite")).toBe(true);
    expect(month.find((e) => e.title === "Call with the Tokyo office")?.timeZone).toBe("Asia/Tokyo");

    // The day window is the person's day: the Tokyo call (09:00 Tokyo) is the evening before in LA.
    const tokyo = month.find((e) => e.title === "Call with the Tokyo office");
    const tokyoDay = Temporal.Instant.from(tokyo?.start ?? "")
      .toZonedDateTimeISO("Asia/Tokyo")
      .toPlainDate();
    const inTokyo = calendarEventsResponseSchema.parse(
      (await events(`date=${tokyoDay}&view=day&tz=Asia/Tokyo`)).json,
    ).events;
    const inLa = calendarEventsResponseSchema.parse(
      (await events(`date=${tokyoDay}&view=day&tz=America/Los_Angeles`)).json,
    ).events;
    expect(inTokyo.some((e) => e.title === "Call with the Tokyo office")).toBe(true);
    expect(inLa.some((e) => e.title === "Call with the Tokyo office")).toBe(false);
  });

  it("syncs incrementally, and converges with a full resync after the sync token expired", async () => {
    // The pass started by connecting may still be running on a slow machine (the events above
    // can be read live meanwhile); a sync arriving now would share its full-pass result.
    for (let i = 0; i < 100; i += 1) {
      const rows = await f.database.database.db.select().from(calendarIntegrations);
      if (rows.every((r) => r.syncCursor)) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const first = calendarSyncResponseSchema.parse(
      (await f.api("POST", "/api/calendar/sync", { token })).json,
    );
    expect(first.integrations[0]).toMatchObject({ ok: true, fullResync: false });

    const day = Temporal.Now.plainDateISO(tz).add({ days: 2 }).toString();
    const added = await fetch(`${f.emulator.url}/_admin/calendars/${PEOPLE.alex}/events`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        summary: "Added elsewhere",
        start: { local: `${day}T13:00:00`, timeZone: tz },
        end: { local: `${day}T14:00:00`, timeZone: tz },
      }),
    });
    const addedId = ((await added.json()) as { id: string }).id;
    const round = calendarSyncResponseSchema.parse(
      (await f.api("POST", "/api/calendar/sync", { token })).json,
    );
    expect(round.integrations[0]).toMatchObject({ ok: true, fullResync: false, changed: 1 });
    let list = calendarEventsResponseSchema.parse(
      (await events(`date=${day}&view=day&tz=${tz}`)).json,
    ).events;
    expect(list.map((e) => e.title)).toContain("Added elsewhere");

    await fetch(`${f.emulator.url}/_admin/calendars/${PEOPLE.alex}/events/${addedId}`, { method: "DELETE" });
    await fetch(`${f.emulator.url}/_admin/calendars/${PEOPLE.alex}/expire-sync`, { method: "POST" });
    const resync = calendarSyncResponseSchema.parse(
      (await f.api("POST", "/api/calendar/sync", { token })).json,
    );
    expect(resync.integrations[0]).toMatchObject({ ok: true, fullResync: true });
    list = calendarEventsResponseSchema.parse((await events(`date=${day}&view=day&tz=${tz}`)).json).events;
    expect(list.map((e) => e.title)).not.toContain("Added elsewhere");
    const again = calendarSyncResponseSchema.parse(
      (await f.api("POST", "/api/calendar/sync", { token })).json,
    );
    expect(again.integrations[0]).toMatchObject({ ok: true, fullResync: false, changed: 0 });
  });

  it("creates a validated event on the chosen calendar, and it is in the provider's calendar", async () => {
    const [integration] = calendarIntegrationsResponseSchema.parse(
      (await f.api("GET", "/api/calendar/integrations", { token })).json,
    );
    const day = Temporal.Now.plainDateISO(tz).add({ days: 4 }).toString();
    const base = { integrationId: integration?.id, timeZone: tz, start: `${day}T15:00`, end: `${day}T15:30` };
    const noTitle = await f.api("POST", "/api/calendar/create-event", {
      token,
      body: { ...base, title: "  " },
    });
    expect(noTitle.status).toBe(400);
    expect(noTitle.json?.error).toMatchObject({
      code: "validation_failed",
      fields: { title: "Title is required" },
    });
    const backwards = await f.api("POST", "/api/calendar/create-event", {
      token,
      body: { ...base, title: "Backwards", end: `${day}T14:00` },
    });
    expect(backwards.status).toBe(400);
    expect(backwards.json?.error).toMatchObject({ fields: { end: "End must be after start" } });
    const stranger = await f.api("POST", "/api/calendar/create-event", {
      token: outlookToken,
      body: { ...base, title: "Not yours" },
    });
    expect(stranger.status).toBe(400);

    const created = await f.api("POST", "/api/calendar/create-event", {
      token,
      body: { ...base, title: "Review with Priya", location: "Room 1", attendees: [PEOPLE.priya] },
    });
    expect(created.status).toBe(201);
    const event = (created.json as { event: CalendarEvent }).event;
    expect(event).toMatchObject({ title: "Review with Priya", provider: "google", status: "confirmed" });
    expect(Temporal.Instant.from(event.start).toZonedDateTimeISO(tz).toPlainTime().toString()).toBe(
      "15:00:00",
    );

    const stored = (await (await fetch(`${f.emulator.url}/_admin/calendars/${PEOPLE.alex}`)).json()) as {
      events: { summary: string; attendees: { email: string }[] }[];
    };
    const there = stored.events.find((e) => e.summary === "Review with Priya");
    expect(there?.attendees.map((a) => a.email)).toContain(PEOPLE.priya);
    // The invitation reaches the guest: a METHOD:REQUEST mail, and the event in her calendar.
    expect(await invitationsTo(PEOPLE.priya, "google", "Review with Priya")).toHaveLength(1);
    const hers = (await (await fetch(`${f.emulator.url}/_admin/calendars/${PEOPLE.priya}`)).json()) as {
      events: { summary: string; organizer: string }[];
    };
    expect(hers.events).toContainEqual(
      expect.objectContaining({ summary: "Review with Priya", organizer: PEOPLE.alex }),
    );
    const list = calendarEventsResponseSchema.parse(
      (await events(`date=${day}&view=day&tz=${tz}`)).json,
    ).events;
    expect(list.filter((e) => e.title === "Review with Priya")).toHaveLength(1);
  });

  it("refuses dates no calendar can hold with 400 before anything reaches the provider", async () => {
    const [integration] = calendarIntegrationsResponseSchema.parse(
      (await f.api("GET", "/api/calendar/integrations", { token })).json,
    );
    const storedTitles = async () =>
      (
        (await (await fetch(`${f.emulator.url}/_admin/calendars/${PEOPLE.alex}`)).json()) as {
          events: { summary: string }[];
        }
      ).events.map((e) => e.summary);
    const before = (await storedTitles()).length;
    const cases: Record<string, unknown>[] = [
      { start: "0000-01-01T10:00", end: "0000-01-01T11:00" },
      { start: "0000-06-01T10:00Z", end: "0000-06-01T11:00Z" },
      { allDay: true, start: "0000-01-01", end: "0000-01-02" },
      { allDay: true, start: "9999-12-31", end: "10000-01-01" },
      { start: "1899-12-31T10:00", end: "1899-12-31T11:00" },
      { start: "3000-01-01T10:00", end: "3000-01-01T11:00" },
      { start: "2026-13-01T10:00", end: "2026-13-01T11:00" },
      { start: "2026-02-30T10:00", end: "2026-02-30T11:00" },
      { allDay: true, start: "2026-05-02", end: "2026-05-01" },
      { start: "2026-05-01T10:00", end: "2026-05-01T10:00" },
    ];
    for (const times of cases) {
      const answer = await f.api("POST", "/api/calendar/create-event", {
        token,
        body: { integrationId: integration?.id, timeZone: tz, title: "Out of range", ...times },
      });
      expect(answer.status, JSON.stringify(times)).toBe(400);
      expect(answer.json?.error).toMatchObject({ code: "validation_failed" });
    }
    const after = await storedTitles();
    expect(after.filter((t) => t === "Out of range")).toEqual([]);
    expect(after.length).toBe(before);
  });

  it("connects Outlook, refuses another person's consent, and reads far-off weeks live", async () => {
    const wrong = await connect("outlook", PEOPLE.casey, { session: outlookToken, pick: PEOPLE.jordan });
    expect(wrong.landing).toMatch(/calendar=error/);
    // A code, never text: the dashboard shows the code's fixed text (issue 34.2).
    const landing = new URLSearchParams(wrong.landing.split("?")[1]);
    expect(landing.get("code")).toBe("other_account");
    expect(landing.has("message")).toBe(false);

    const ok = await connect("outlook", PEOPLE.casey, { session: outlookToken });
    expect(ok.landing).toBe("/dashboard?calendar=connected&provider=outlook");
    // "Quarterly planning" is seeded three days ahead: ask for that day's week, so the test does
    // not depend on the weekday it runs on (from Thursday on, it falls in the next week).
    const inThreeDays = Temporal.Now.plainDateISO("Europe/Berlin").add({ days: 3 }).toString();
    const week = await eventsUntil(
      `date=${inThreeDays}&view=week&tz=Europe/Berlin`,
      (l) => l.some((e) => e.title === "Team standup"),
      outlookToken,
    );
    expect(week.every((e) => e.provider === "outlook" && e.calendarEmail === PEOPLE.casey)).toBe(true);
    // The seeding puts the cancelled planning three days out: the week holding that day.
    const planningDay = Temporal.Now.plainDateISO(tz).add({ days: 3 }).toString();
    const planningWeek = await eventsUntil(
      `date=${planningDay}&view=week&tz=Europe/Berlin`,
      (l) => l.some((e) => e.title === "Quarterly planning"),
      outlookToken,
    );
    expect(planningWeek.some((e) => e.title === "Quarterly planning" && e.status === "cancelled")).toBe(true);
    const far = Temporal.Now.plainDateISO(tz).add({ days: 500 }).toString();
    const farWeek = calendarEventsResponseSchema.parse(
      (await events(`date=${far}&view=week&tz=Europe/Berlin`, outlookToken)).json,
    ).events;
    expect(farWeek.filter((e) => e.title === "Team standup").length).toBe(5);
    // Alex sees none of Casey's events.
    const alexWeek = calendarEventsResponseSchema.parse(
      (await events(`date=${today()}&view=week&tz=${tz}`)).json,
    ).events;
    expect(alexWeek.every((e) => e.provider === "google")).toBe(true);
  });

  it("an event created on Outlook with a guest reaches the guest's mailbox and calendar", async () => {
    const [integration] = calendarIntegrationsResponseSchema.parse(
      (await f.api("GET", "/api/calendar/integrations", { token: outlookToken })).json,
    );
    const day = Temporal.Now.plainDateISO(tz).add({ days: 5 }).toString();
    const created = await f.api("POST", "/api/calendar/create-event", {
      token: outlookToken,
      body: {
        integrationId: integration?.id,
        title: "Sprint demo",
        timeZone: tz,
        start: `${day}T11:00`,
        end: `${day}T12:00`,
        attendees: [PEOPLE.jordan],
      },
    });
    expect(created.status).toBe(201);
    expect(await invitationsTo(PEOPLE.jordan, "microsoft", "Sprint demo")).toHaveLength(1);
    const his = (await (
      await fetch(`${f.emulator.url}/_admin/calendars/${PEOPLE.jordan}?provider=microsoft`)
    ).json()) as { events: { summary: string; organizer: string }[] };
    expect(his.events).toContainEqual(
      expect.objectContaining({ summary: "Sprint demo", organizer: PEOPLE.casey }),
    );
  });

  it("connects a calendar of another provider, or another account, without a mailbox of it", async () => {
    // Alex has only Gmail: an Outlook calendar connects all the same (Jordan's, at the consent page).
    const outlook = await connectCalendarOverHttp(f.server.url, token, "outlook", {
      pick: PEOPLE.jordan,
      hint: null,
    });
    expect(outlook.landing).toBe("/dashboard?calendar=connected&provider=outlook");
    let list = calendarIntegrationsResponseSchema.parse(
      (await f.api("GET", "/api/calendar/integrations", { token })).json,
    );
    expect(list).toEqual([
      expect.objectContaining({ provider: "google", email: PEOPLE.alex, isConnected: true }),
      expect.objectContaining({
        provider: "outlook",
        email: PEOPLE.jordan,
        isConnected: true,
        accountId: null,
        status: "active",
      }),
    ]);
    const week = await eventsUntil(`date=${today()}&view=week&tz=${tz}`, (l) =>
      l.some((e) => e.provider === "outlook" && e.calendarEmail === PEOPLE.jordan),
    );
    expect(week.some((e) => e.provider === "google")).toBe(true);
    // Connecting it again repairs the same calendar, not a second copy.
    await connectCalendarOverHttp(f.server.url, token, "outlook", {
      pick: PEOPLE.jordan,
      calendarOnly: true,
    });
    list = calendarIntegrationsResponseSchema.parse(
      (await f.api("GET", "/api/calendar/integrations", { token })).json,
    );
    expect(list.filter((i) => i.provider === "outlook")).toHaveLength(1);

    // And the other way round: Casey has only Outlook, and connects a Google calendar (Sam's).
    const google = await connectCalendarOverHttp(f.server.url, outlookToken, "google", {
      pick: PEOPLE.sam,
      hint: null,
      calendarOnly: true,
    });
    expect(google.landing).toBe("/dashboard?calendar=connected&provider=google");
    const casey = calendarIntegrationsResponseSchema.parse(
      (await f.api("GET", "/api/calendar/integrations", { token: outlookToken })).json,
    );
    expect(casey).toContainEqual(
      expect.objectContaining({ provider: "google", email: PEOPLE.sam, accountId: null, isConnected: true }),
    );
    // A calendar-only choice of the mailbox's own account joins that mailbox's entry.
    await connectCalendarOverHttp(f.server.url, outlookToken, "outlook", {
      pick: PEOPLE.casey,
      calendarOnly: true,
    });
    const again = calendarIntegrationsResponseSchema.parse(
      (await f.api("GET", "/api/calendar/integrations", { token: outlookToken })).json,
    );
    expect(again.filter((i) => i.provider === "outlook")).toEqual([
      expect.objectContaining({ email: PEOPLE.casey, isConnected: true }),
    ]);
    // Disconnecting a calendar-only connection removes it from the list.
    const samCalendar = again.find((i) => i.email === PEOPLE.sam);
    expect(
      (await f.api("DELETE", `/api/calendar/integrations/${samCalendar?.id}`, { token: outlookToken }))
        .status,
    ).toBe(204);
    const gone = calendarIntegrationsResponseSchema.parse(
      (await f.api("GET", "/api/calendar/integrations", { token: outlookToken })).json,
    );
    expect(gone.map((i) => i.email)).toEqual([PEOPLE.casey]);
  });

  it("disconnecting a calendar removes its events; nobody else can disconnect it", async () => {
    const [integration] = calendarIntegrationsResponseSchema.parse(
      (await f.api("GET", "/api/calendar/integrations", { token: outlookToken })).json,
    );
    const id = integration?.id ?? "";
    expect((await f.api("DELETE", `/api/calendar/integrations/${id}`, { token })).status).toBe(404);
    const db = f.database.database.db;
    // The first pass runs as a job after connecting; an explicit sync waits for the stored copy.
    expect((await f.api("POST", "/api/calendar/sync", { token: outlookToken })).status).toBe(200);
    expect(
      (await db.select().from(calendarEvents).where(eq(calendarEvents.integrationId, id))).length,
    ).toBeGreaterThan(0);
    expect((await f.api("DELETE", `/api/calendar/integrations/${id}`, { token: outlookToken })).status).toBe(
      204,
    );
    expect(await db.select().from(calendarEvents).where(eq(calendarEvents.integrationId, id))).toEqual([]);
    const after = calendarIntegrationsResponseSchema.parse(
      (await f.api("GET", "/api/calendar/integrations", { token: outlookToken })).json,
    );
    expect(after[0]).toMatchObject({ isConnected: false, id: null });
  });
});
