import { Temporal } from "temporal-polyfill";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Provider, RunningEmulator } from "../server.ts";
import {
  authorizeUrl,
  pkcePair,
  postToken,
  signIn,
  startTestEmulator,
  str,
  TEST_CLIENTS,
  TEST_REDIRECT_URI,
  tokenUrl,
} from "../test-support.ts";

const GOOGLE_CAL =
  "https://www.googleapis.com/auth/calendar.readonly https://www.googleapis.com/auth/calendar.events";

async function tokenFor(
  emu: RunningEmulator,
  provider: Provider,
  email: string,
  scope: string,
): Promise<string> {
  const pkce = pkcePair();
  const redirect = await signIn(
    authorizeUrl(emu.url, provider, {
      client_id: TEST_CLIENTS[provider].clientId,
      redirect_uri: TEST_REDIRECT_URI,
      response_type: "code",
      scope,
      code_challenge: pkce.challenge,
      code_challenge_method: "S256",
    }),
    { email },
  );
  const exchanged = await postToken(tokenUrl(emu.url, provider), {
    grant_type: "authorization_code",
    code: redirect.searchParams.get("code") ?? "",
    code_verifier: pkce.verifier,
    redirect_uri: TEST_REDIRECT_URI,
    client_id: TEST_CLIENTS[provider].clientId,
    client_secret: TEST_CLIENTS[provider].clientSecret,
  });
  return str(exchanged.body, "access_token");
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

async function call(
  url: string,
  token: string,
  init: { method?: string; body?: unknown; prefer?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (init.body !== undefined) headers["content-type"] = "application/json";
  if (init.prefer) headers.prefer = init.prefer;
  const response = await fetch(url, {
    method: init.method ?? "GET",
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

type Item = Record<string, unknown> & { id: string; summary?: string; subject?: string };

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startTestEmulator({ mail: { seedCorpus: false } });
});
afterAll(async () => {
  await emu?.close();
});

function isoAt(date: string, zone: string): string {
  return Temporal.PlainDate.from(date).toZonedDateTime({ timeZone: zone }).toInstant().toString();
}

describe("Google Calendar v3", () => {
  let token: string;
  const api = () => `${emu.url}/www.googleapis.com/calendar/v3`;
  beforeAll(async () => {
    token = await tokenFor(emu, "google", "alex.morgan@gmail.com", `openid email ${GOOGLE_CAL}`);
  });

  it("lists the primary calendar and the holiday calendar", async () => {
    const { status, body } = await call(`${api()}/users/me/calendarList`, token);
    expect(status).toBe(200);
    const items = body.items as Item[];
    expect(items.map((i) => i.id)).toEqual([
      "alex.morgan@gmail.com",
      "en.usa#holiday@group.v.calendar.google.com",
    ]);
    expect(items[0]).toMatchObject({ primary: true, accessRole: "owner", timeZone: "America/New_York" });
  });

  it("refuses calls without a calendar scope, and without a token", async () => {
    const mailOnly = await tokenFor(
      emu,
      "google",
      "priya.shah@gmail.com",
      "openid email https://www.googleapis.com/auth/gmail.modify",
    );
    const refused = await call(`${api()}/calendars/primary/events`, mailOnly);
    expect(refused.status).toBe(403);
    expect(JSON.stringify(refused.body)).toContain("insufficientPermissions");
    expect((await call(`${api()}/calendars/primary/events`, "nope")).status).toBe(401);
  });

  it("expands a recurring meeting in its own zone across a DST change", async () => {
    // The first Sunday of November: New York falls back an hour.
    const year = Temporal.Now.plainDateISO().year;
    let date = Temporal.PlainDate.from(`${year}-11-01`);
    while (date.dayOfWeek !== 7) date = date.add({ days: 1 });
    const from = isoAt(date.subtract({ days: 6 }).toString(), "America/New_York");
    const to = isoAt(date.add({ days: 6 }).toString(), "America/New_York");
    const url = `${api()}/calendars/primary/events?singleEvents=true&orderBy=startTime&timeMin=${from}&timeMax=${to}&maxResults=2500`;
    const { status, body } = await call(url, token);
    expect(status).toBe(200);
    const standups = (body.items as Item[]).filter((i) => i.summary === "Team standup");
    expect(standups.length).toBeGreaterThanOrEqual(8);
    const offsets = new Set(
      standups.map((i) => String((i.start as { dateTime: string }).dateTime).slice(11)),
    );
    // Always 09:30 New York time: -04:00 before the change, -05:00 after.
    expect(offsets).toEqual(new Set(["09:30:00-04:00", "09:30:00-05:00"]));
    expect(standups[0]).toMatchObject({ recurringEventId: expect.any(String), status: "confirmed" });
  });

  it("answers cancelled instances only with showDeleted, pages with pageToken, and orders by start", async () => {
    const now = Date.now();
    const from = new Date(now - 14 * 86_400_000).toISOString();
    const to = new Date(now + 30 * 86_400_000).toISOString();
    const base = `${api()}/calendars/primary/events?singleEvents=true&timeMin=${from}&timeMax=${to}`;
    const plain = (await call(`${base}&maxResults=2500`, token)).body.items as Item[];
    const withDeleted = (await call(`${base}&maxResults=2500&showDeleted=true`, token)).body.items as Item[];
    expect(plain.some((i) => i.status === "cancelled")).toBe(false);
    const cancelled = withDeleted.filter((i) => i.status === "cancelled").map((i) => i.summary);
    expect(cancelled).toEqual(expect.arrayContaining(["Team standup", "Quarterly planning"]));
    expect(plain.some((i) => (i.start as { date?: string }).date !== undefined)).toBe(true);

    const paged: Item[] = [];
    let pageToken: string | undefined;
    let syncToken: string | undefined;
    do {
      const answer = await call(
        `${base}&orderBy=startTime&maxResults=7${pageToken ? `&pageToken=${pageToken}` : ""}`,
        token,
      );
      expect(answer.status).toBe(200);
      paged.push(...(answer.body.items as Item[]));
      pageToken = answer.body.nextPageToken as string | undefined;
      syncToken = answer.body.nextSyncToken as string | undefined;
      if (pageToken) expect(syncToken).toBeUndefined();
    } while (pageToken);
    expect(syncToken).toEqual(expect.any(String));
    expect(paged.map((i) => i.id)).toEqual(plain.map((i) => i.id));
  });

  it("rejects bad queries the way Google does", async () => {
    const events = `${api()}/calendars/primary/events`;
    expect((await call(`${events}?timeMin=yesterday`, token)).status).toBe(400);
    expect((await call(`${events}?orderBy=startTime`, token)).status).toBe(400);
    expect((await call(`${events}?syncToken=abc&timeMin=2026-01-01T00:00:00Z`, token)).status).toBe(400);
    expect((await call(`${api()}/calendars/nobody@example.com/events`, token)).status).toBe(404);
  });

  it("syncs incrementally and answers 410 once the token expired", async () => {
    const from = new Date(Date.now() - 7 * 86_400_000).toISOString();
    const to = new Date(Date.now() + 60 * 86_400_000).toISOString();
    const full = await call(
      `${api()}/calendars/primary/events?singleEvents=true&showDeleted=true&maxResults=2500&timeMin=${from}&timeMax=${to}`,
      token,
    );
    const syncToken = str(full.body, "nextSyncToken");
    const quiet = await call(
      `${api()}/calendars/primary/events?singleEvents=true&syncToken=${syncToken}`,
      token,
    );
    expect(quiet.body.items).toEqual([]);

    const tomorrow = Temporal.Now.plainDateISO("America/New_York").add({ days: 1 }).toString();
    const inserted = await call(`${api()}/calendars/primary/events`, token, {
      method: "POST",
      body: {
        summary: "Coffee with Casey",
        start: { dateTime: `${tomorrow}T15:00:00`, timeZone: "America/New_York" },
        end: { dateTime: `${tomorrow}T15:30:00`, timeZone: "America/New_York" },
        attendees: [{ email: "casey.kim@outlook.com" }],
      },
    });
    expect(inserted.status).toBe(200);
    expect(inserted.body).toMatchObject({ summary: "Coffee with Casey", status: "confirmed" });
    const changed = await call(
      `${api()}/calendars/primary/events?singleEvents=true&syncToken=${str(quiet.body, "nextSyncToken")}`,
      token,
    );
    expect((changed.body.items as Item[]).map((i) => i.summary)).toEqual(["Coffee with Casey"]);

    await fetch(`${emu.url}/_admin/calendars/alex.morgan@gmail.com/events/${str(inserted.body, "id")}`, {
      method: "DELETE",
    });
    const removed = await call(
      `${api()}/calendars/primary/events?singleEvents=true&syncToken=${str(changed.body, "nextSyncToken")}`,
      token,
    );
    expect(removed.body.items).toEqual([
      expect.objectContaining({ id: inserted.body.id, status: "cancelled" }),
    ]);

    await fetch(`${emu.url}/_admin/calendars/alex.morgan@gmail.com/expire-sync`, { method: "POST" });
    const gone = await call(
      `${api()}/calendars/primary/events?singleEvents=true&syncToken=${str(removed.body, "nextSyncToken")}`,
      token,
    );
    expect(gone.status).toBe(410);
    expect(JSON.stringify(gone.body)).toContain("fullSyncRequired");
  });

  it("validates inserts", async () => {
    const events = `${api()}/calendars/primary/events`;
    const backwards = await call(events, token, {
      method: "POST",
      body: {
        summary: "x",
        start: { dateTime: "2026-05-01T10:00:00Z" },
        end: { dateTime: "2026-05-01T09:00:00Z" },
      },
    });
    expect(backwards.status).toBe(400);
    expect(JSON.stringify(backwards.body)).toContain("timeRangeEmpty");
    expect((await call(events, token, { method: "POST", body: { summary: "x" } })).status).toBe(400);
    const holidays = encodeURIComponent("en.usa#holiday@group.v.calendar.google.com");
    const readOnly = await call(`${api()}/calendars/${holidays}/events`, token, {
      method: "POST",
      body: { summary: "x", start: { date: "2026-05-01" }, end: { date: "2026-05-02" } },
    });
    expect(readOnly.status).toBe(403);
  });
});

describe("Graph calendar", () => {
  let token: string;
  const graph = () => `${emu.url}/graph.microsoft.com/v1.0`;
  beforeAll(async () => {
    token = await tokenFor(
      emu,
      "microsoft",
      "jordan.lee@outlook.com",
      "openid offline_access User.Read Calendars.ReadWrite",
    );
  });

  it("lists the default calendar and pages calendarView", async () => {
    const calendars = await call(`${graph()}/me/calendars`, token);
    expect((calendars.body.value as Item[])[0]).toMatchObject({ name: "Calendar", isDefaultCalendar: true });
    const from = new Date(Date.now() - 7 * 86_400_000).toISOString();
    const to = new Date(Date.now() + 21 * 86_400_000).toISOString();
    const seen: Item[] = [];
    let next: string | undefined =
      `${graph()}/me/calendarView?startDateTime=${from}&endDateTime=${to}&$top=5`;
    while (next) {
      const page = await call(next, token);
      expect(page.status).toBe(200);
      seen.push(...(page.body.value as Item[]));
      next = page.body["@odata.nextLink"] as string | undefined;
    }
    expect(seen.length).toBeGreaterThan(10);
    expect(new Set(seen.map((i) => i.id)).size).toBe(seen.length);
    // A deleted occurrence is absent; a meeting its organizer cancelled stays, flagged.
    expect(seen.find((i) => i.subject === "Quarterly planning")).toMatchObject({ isCancelled: true });
    expect(seen.some((i) => i.isAllDay === true)).toBe(true);
    expect(seen.find((i) => i.subject === "Team standup")).toMatchObject({ type: "occurrence" });
    expect((await call(`${graph()}/me/calendarView`, token)).status).toBe(400);
  });

  it("runs delta rounds: everything, then changes and removals, then 410 after expiry", async () => {
    const from = new Date(Date.now() - 7 * 86_400_000).toISOString();
    const to = new Date(Date.now() + 21 * 86_400_000).toISOString();
    let url: string | undefined = `${graph()}/me/calendarView/delta?startDateTime=${from}&endDateTime=${to}`;
    let deltaLink = "";
    let count = 0;
    while (url) {
      const page = await call(url, token, { prefer: "odata.maxpagesize=8" });
      expect(page.status).toBe(200);
      count += (page.body.value as Item[]).length;
      url = page.body["@odata.nextLink"] as string | undefined;
      deltaLink = (page.body["@odata.deltaLink"] as string | undefined) ?? deltaLink;
    }
    expect(count).toBeGreaterThan(10);

    const tomorrow = Temporal.Now.plainDateISO("America/New_York").add({ days: 1 }).toString();
    const created = await call(`${graph()}/me/events`, token, {
      method: "POST",
      body: {
        subject: "Pairing session",
        start: { dateTime: `${tomorrow}T16:00:00`, timeZone: "America/New_York" },
        end: { dateTime: `${tomorrow}T17:00:00`, timeZone: "America/New_York" },
        attendees: [{ emailAddress: { address: "alex.morgan@gmail.com", name: "Alex" }, type: "required" }],
      },
    });
    expect(created.status).toBe(201);
    const round = await call(deltaLink, token);
    expect((round.body.value as Item[]).map((i) => i.subject)).toEqual(["Pairing session"]);

    const stored = await call(`${emu.url}/_admin/calendars/jordan.lee@outlook.com`, "");
    const event = (stored.body.events as Item[]).find((e) => e.summary === "Pairing session");
    await fetch(`${emu.url}/_admin/calendars/jordan.lee@outlook.com/events/${event?.id}`, {
      method: "DELETE",
    });
    const removal = await call(str(round.body, "@odata.deltaLink"), token);
    expect(removal.body.value).toEqual([
      expect.objectContaining({ id: created.body.id, "@removed": { reason: "deleted" } }),
    ]);

    await fetch(`${emu.url}/_admin/calendars/jordan.lee@outlook.com/expire-sync`, { method: "POST" });
    const gone = await call(str(removal.body, "@odata.deltaLink"), token);
    expect(gone.status).toBe(410);
    expect(JSON.stringify(gone.body)).toContain("SyncStateNotFound");
  });

  it("needs Calendars.ReadWrite to create, and validates the times", async () => {
    const readOnly = await tokenFor(
      emu,
      "microsoft",
      "casey.kim@outlook.com",
      "openid User.Read Calendars.Read",
    );
    const body = {
      subject: "x",
      start: { dateTime: "2026-05-01T10:00:00", timeZone: "UTC" },
      end: { dateTime: "2026-05-01T11:00:00", timeZone: "UTC" },
    };
    expect((await call(`${graph()}/me/events`, readOnly, { method: "POST", body })).status).toBe(403);
    const backwards = await call(`${graph()}/me/events`, token, {
      method: "POST",
      body: { ...body, end: { dateTime: "2026-05-01T09:00:00", timeZone: "UTC" } },
    });
    expect(backwards.status).toBe(400);
    const badZone = await call(`${graph()}/me/events`, token, {
      method: "POST",
      body: { ...body, start: { dateTime: "2026-05-01T10:00:00", timeZone: "Mars/Olympus" } },
    });
    expect(badZone.status).toBe(400);
  });
});
