import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/server.ts";
import { startTestEmulator } from "../../emulator/test-support.ts";
import type { Config } from "../config.ts";
import { CALENDAR_SCOPES, connectTestAccount, emulatorAdmin } from "../test/provider-accounts.ts";
import { calendarClientFactory } from "./factory.ts";
import { CalendarCursorExpiredError, type CalendarProviderClient, type ProviderEvent } from "./provider.ts";

/**
 * ONE behaviour suite for both calendar adapters (house style 6), over real HTTP against the
 * provider emulator's Google Calendar and Graph calendar, each on a seeded demo calendar.
 */

const DAY = 86_400_000;
let emulator: RunningEmulator;
let admin: ReturnType<typeof emulatorAdmin>;

beforeAll(async () => {
  emulator = await startTestEmulator({ mail: { seedCorpus: false } });
  admin = emulatorAdmin(emulator);
});
afterAll(async () => {
  await emulator?.close();
});

const CASES = [
  { kind: "google", emu: "google", email: "alex.morgan@gmail.com", zone: "America/New_York" },
  { kind: "outlook", emu: "microsoft", email: "casey.kim@outlook.com", zone: "Europe/Berlin" },
] as const;

function byTitle(events: ProviderEvent[], title: string): ProviderEvent[] {
  return events.filter((e) => e.title === title);
}

describe.each(CASES)("$kind calendar adapter", ({ kind, emu, email, zone }) => {
  let client: CalendarProviderClient;
  let calendarId: string;
  const window = () => ({ start: new Date(Date.now() - 14 * DAY), end: new Date(Date.now() + 40 * DAY) });

  beforeAll(async () => {
    const tokens = await connectTestAccount(emulator, emu, email, CALENDAR_SCOPES[emu]);
    const config = {
      providers: {
        googleApis: `${emulator.url}/www.googleapis.com`,
        graph: `${emulator.url}/graph.microsoft.com`,
      },
    } as Pick<Config, "providers">;
    client = calendarClientFactory({
      config,
      tokens,
      tuning: { timeoutMs: 10_000, retry: { maxAttempts: 2 } },
    })({
      id: `test-${kind}`,
      userId: "test-user",
      provider: kind,
    });
    calendarId = (await client.primaryCalendar()).id;
  });

  it("finds the primary calendar", async () => {
    const info = await client.primaryCalendar();
    expect(info.id).toEqual(expect.any(String));
    expect(info.name.length).toBeGreaterThan(0);
  });

  it("reads recurring, all-day, cancelled, tentative and other-zone events in a full sync", async () => {
    const { events, cursor } = await client.fullSync(calendarId, window());
    expect(cursor.length).toBeGreaterThan(0);
    const standups = byTitle(events, "Team standup");
    expect(standups.length).toBeGreaterThan(10);
    expect(standups.every((e) => e.seriesId !== null && e.start.kind === "timed")).toBe(true);
    expect(new Set(standups.map((e) => e.providerId)).size).toBe(standups.length);
    expect(events.find((e) => e.title === "Company offsite")).toMatchObject({
      start: { kind: "date" },
      end: { kind: "date" },
    });
    expect(events.find((e) => e.title === "Quarterly planning")?.status).toBe("cancelled");
    expect(events.find((e) => e.title.startsWith("Lunch with"))?.status).toBe("tentative");
    const tokyo = events.find((e) => e.title === "Call with the Tokyo office");
    expect(tokyo?.start).toMatchObject({ kind: "timed", timeZone: "Asia/Tokyo" });
    expect(tokyo?.attendees.map((a) => a.email)).toContain(email);
    const design = events.find((e) => e.title === "Design sync");
    expect(design?.attendees.length).toBeGreaterThanOrEqual(2);
    expect(design?.organizer).toMatch(/@/);
    // The same instant whichever zone it is shown in: 09:00 in Tokyo.
    if (tokyo?.start.kind === "timed") {
      const local = new Intl.DateTimeFormat("en-GB", {
        timeZone: "Asia/Tokyo",
        hour: "2-digit",
        minute: "2-digit",
      });
      expect(local.format(tokyo.start.at)).toBe("09:00");
    }
  });

  it("lists any range live, in order", async () => {
    // Whole UTC days: a range starting during a standup (13:30 or 14:30 UTC) also holds that one.
    const from = Math.floor((Date.now() + 500 * DAY) / DAY) * DAY;
    const far = { start: new Date(from), end: new Date(from + 7 * DAY) };
    const events = await client.listRange(calendarId, far);
    const standups = byTitle(events, "Team standup");
    expect(standups).toHaveLength(5);
    const starts = events
      .filter((e) => e.start.kind === "timed")
      .map((e) => (e.start.kind === "timed" ? e.start.at.getTime() : 0));
    expect([...starts].sort((a, b) => a - b)).toEqual(starts);
  });

  it("syncs incrementally: creations, changes and removals, then converges after a 410", async () => {
    const full = await client.fullSync(calendarId, window());
    const quiet = await client.changes(calendarId, full.cursor);
    expect(quiet.upserts).toEqual([]);
    expect(quiet.removedIds).toEqual([]);

    const startAt = new Date(Math.ceil((Date.now() + 3 * DAY) / 3_600_000) * 3_600_000);
    const created = await client.create(calendarId, {
      title: `Contract ${kind}`,
      start: { kind: "timed", at: startAt, timeZone: zone },
      end: { kind: "timed", at: new Date(startAt.getTime() + 45 * 60_000), timeZone: zone },
      timeZone: zone,
      location: "Room 9",
      description: "Made by the contract suite",
      attendees: ["priya.shah@gmail.com"],
    });
    expect(created).toMatchObject({ title: `Contract ${kind}`, location: "Room 9", status: "confirmed" });
    expect(created.start.kind === "timed" && created.start.at.getTime()).toBe(startAt.getTime());
    expect(created.attendees.map((a) => a.email)).toContain("priya.shah@gmail.com");

    const afterCreate = await client.changes(calendarId, quiet.cursor);
    expect(afterCreate.upserts.map((e) => e.providerId)).toEqual([created.providerId]);

    const stored = await admin<{ events: { id: string; summary: string }[] }>("GET", `calendars/${email}`);
    const storedId = stored.events.find((e) => e.summary === `Contract ${kind}`)?.id;
    expect(storedId).toBeDefined();
    await admin("PATCH", `calendars/${email}/events/${storedId}`, { summary: `Contract ${kind} (moved)` });
    const afterPatch = await client.changes(calendarId, afterCreate.cursor);
    expect(afterPatch.upserts.map((e) => e.title)).toEqual([`Contract ${kind} (moved)`]);

    await admin("DELETE", `calendars/${email}/events/${storedId}`);
    const afterDelete = await client.changes(calendarId, afterPatch.cursor);
    expect(afterDelete.upserts).toEqual([]);
    expect(afterDelete.removedIds).toEqual([created.providerId]);

    await admin("POST", `calendars/${email}/expire-sync`, {});
    await expect(client.changes(calendarId, afterDelete.cursor)).rejects.toBeInstanceOf(
      CalendarCursorExpiredError,
    );
    const again = await client.fullSync(calendarId, window());
    expect(again.events.some((e) => e.title.startsWith("Contract"))).toBe(false);
    expect((await client.changes(calendarId, again.cursor)).upserts).toEqual([]);
  });

  it("finds an invitation's event by its UID and answers it; the organizer's event records the answer", async () => {
    const organizer = kind === "google" ? "priya.shah@gmail.com" : "jordan.lee@outlook.com";
    const startAt = new Date(Math.ceil((Date.now() + 6 * DAY) / 3_600_000) * 3_600_000);
    const local = (ms: number) => new Date(ms).toISOString().slice(0, 19);
    const made = await admin<{ uid: string }>("POST", `calendars/${organizer}/events?provider=${emu}`, {
      summary: `Invite ${kind}`,
      start: { local: local(startAt.getTime()), timeZone: "UTC" },
      end: { local: local(startAt.getTime() + 3_600_000), timeZone: "UTC" },
      attendees: [{ email }],
      sendUpdates: "all",
    });
    expect(await client.findByUid(calendarId, "no-such-uid@example.com")).toBeNull();
    const eventId = await client.findByUid(calendarId, made.uid);
    expect(eventId).toEqual(expect.any(String));
    await client.respond(calendarId, eventId ?? "", email, "tentative");
    const theirs = await admin<{
      events: { uid: string; attendees: { email: string; response: string }[] }[];
    }>("GET", `calendars/${organizer}?provider=${emu}`);
    expect(theirs.events.find((e) => e.uid === made.uid)?.attendees).toContainEqual({
      email,
      response: "tentative",
    });
    // The calendar's own copy says so too.
    const mine = await client.listRange(calendarId, {
      start: new Date(startAt.getTime() - DAY),
      end: new Date(startAt.getTime() + DAY),
    });
    expect(mine.find((e) => e.title === `Invite ${kind}`)?.attendees).toContainEqual(
      expect.objectContaining({ email, responseStatus: "tentative" }),
    );
  });

  it("creates all-day events and refuses nonsense", async () => {
    const created = await client.create(calendarId, {
      title: "Holiday",
      start: { kind: "date", date: "2031-07-14" },
      end: { kind: "date", date: "2031-07-16" },
      timeZone: zone,
      location: undefined,
      description: undefined,
      attendees: [],
    });
    expect(created.start).toEqual({ kind: "date", date: "2031-07-14" });
    expect(created.end).toEqual({ kind: "date", date: "2031-07-16" });
    await expect(
      client.create(calendarId, {
        title: "Backwards",
        start: { kind: "timed", at: new Date("2031-01-01T10:00:00Z"), timeZone: zone },
        end: { kind: "timed", at: new Date("2031-01-01T09:00:00Z"), timeZone: zone },
        timeZone: zone,
        location: undefined,
        description: undefined,
        attendees: [],
      }),
    ).rejects.toMatchObject({ kind: "permanent", status: 400 });
  });
});
