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

describe("invitations and answers between emulator people", () => {
  const google = () => `${emu.url}/www.googleapis.com/calendar/v3`;
  const graph = () => `${emu.url}/graph.microsoft.com/v1.0`;
  const day = () => Temporal.Now.plainDateISO("UTC").add({ days: 6 }).toString();

  interface AdminEvent {
    id: string;
    uid: string;
    summary: string;
    organizer: string;
    attendees: { email: string; response: string }[];
  }
  const calendarOf = async (email: string, provider: Provider) =>
    (await call(`${emu.url}/_admin/calendars/${email}?provider=${provider}`, "")).body
      .events as unknown as AdminEvent[];
  /** Each message of a mailbox whose subject contains `text`, with its raw text. */
  async function mailOf(email: string, provider: Provider, text: string): Promise<string[]> {
    const list = (await call(`${emu.url}/_admin/mailboxes/${email}?provider=${provider}&limit=1000`, "")).body
      .messages as { id: string; subject: string }[];
    const found: string[] = [];
    for (const message of list.filter((m) => m.subject.includes(text))) {
      const one = await call(
        `${emu.url}/_admin/mailboxes/${email}/messages/${message.id}?provider=${provider}`,
        "",
      );
      found.push(str(one.body, "raw"));
    }
    return found;
  }

  it("Google mails guests only with sendUpdates, puts the event in their calendars, and records an answer", async () => {
    const alex = await tokenFor(emu, "google", "alex.morgan@gmail.com", `openid email ${GOOGLE_CAL}`);
    const insert = (summary: string, query: string) =>
      call(`${google()}/calendars/primary/events${query}`, alex, {
        method: "POST",
        body: {
          summary,
          start: { dateTime: `${day()}T10:00:00`, timeZone: "UTC" },
          end: { dateTime: `${day()}T11:00:00`, timeZone: "UTC" },
          attendees: [{ email: "priya.shah@gmail.com" }, { email: "casey.kim@outlook.com" }],
        },
      });
    expect((await insert("Quiet planning", "")).status).toBe(200);
    expect((await insert("Quiet planning 2", "?sendUpdates=none")).status).toBe(200);
    expect(await mailOf("priya.shah@gmail.com", "google", "Quiet planning")).toEqual([]);
    expect((await calendarOf("priya.shah@gmail.com", "google")).map((e) => e.summary)).not.toContain(
      "Quiet planning",
    );
    expect((await insert("x", "?sendUpdates=loud")).status).toBe(400);

    const sent = await insert("Budget review", "?sendUpdates=all");
    expect(sent.status).toBe(200);
    const uid = str(sent.body, "iCalUID");
    for (const [email, provider] of [
      ["priya.shah@gmail.com", "google"],
      ["casey.kim@outlook.com", "microsoft"],
    ] as const) {
      const [mail, ...more] = await mailOf(email, provider, "Invitation: Budget review");
      expect(more).toEqual([]);
      expect(mail).toMatch(/Content-Type: text\/calendar; charset="UTF-8"; method=REQUEST/);
      expect(mail).toContain(`UID:${uid}`);
      expect(mail).toContain("METHOD:REQUEST");
      const copy = (await calendarOf(email, provider)).find((e) => e.uid === uid);
      expect(copy).toMatchObject({ summary: "Budget review", organizer: "alex.morgan@gmail.com" });
    }

    // Priya answers on her copy; Alex's event records it, and Alex gets the reply by mail.
    const priya = await tokenFor(emu, "google", "priya.shah@gmail.com", `openid email ${GOOGLE_CAL}`);
    const found = await call(
      `${google()}/calendars/primary/events?iCalUID=${encodeURIComponent(uid)}`,
      priya,
    );
    const [copy] = found.body.items as Item[];
    expect(copy?.id).toBeDefined();
    const patched = await call(`${google()}/calendars/primary/events/${copy?.id}?sendUpdates=all`, priya, {
      method: "PATCH",
      body: { attendees: [{ email: "priya.shah@gmail.com", responseStatus: "accepted" }] },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.attendees).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ email: "priya.shah@gmail.com", responseStatus: "accepted", self: true }),
      ]),
    );
    const organizerCopy = (await calendarOf("alex.morgan@gmail.com", "google")).find((e) => e.uid === uid);
    expect(organizerCopy?.attendees).toContainEqual({ email: "priya.shah@gmail.com", response: "accepted" });
    const [reply] = await mailOf("alex.morgan@gmail.com", "google", "Accepted: Budget review");
    expect(reply).toContain("METHOD:REPLY");
    expect(reply?.replace(/\r\n /g, "")).toMatch(
      /PARTSTAT=ACCEPTED;CN="Priya Shah":mailto:priya.shah@gmail.com/,
    );
    // A guest cannot rename the organizer's event.
    const rename = await call(`${google()}/calendars/primary/events/${copy?.id}`, priya, {
      method: "PATCH",
      body: { summary: "Mine now" },
    });
    expect(rename.status).toBe(403);
  });

  it("Graph sends meeting requests with the event, and accept/decline reach the organizer", async () => {
    const casey = await tokenFor(
      emu,
      "microsoft",
      "casey.kim@outlook.com",
      "openid User.Read Calendars.ReadWrite",
    );
    const created = await call(`${graph()}/me/events`, casey, {
      method: "POST",
      body: {
        subject: "Design crit",
        start: { dateTime: `${day()}T14:00:00`, timeZone: "UTC" },
        end: { dateTime: `${day()}T15:00:00`, timeZone: "UTC" },
        attendees: [
          { emailAddress: { address: "jordan.lee@outlook.com" }, type: "required" },
          { emailAddress: { address: "sam.taylor@gmail.com" }, type: "required" },
        ],
      },
    });
    expect(created.status).toBe(201);
    const uid = str(created.body, "iCalUId");
    const [request] = await mailOf("jordan.lee@outlook.com", "microsoft", "Invitation: Design crit");
    expect(request).toContain("METHOD:REQUEST");
    expect(await mailOf("sam.taylor@gmail.com", "google", "Invitation: Design crit")).toHaveLength(1);

    const jordan = await tokenFor(
      emu,
      "microsoft",
      "jordan.lee@outlook.com",
      "openid User.Read Calendars.ReadWrite",
    );
    const found = await call(
      `${graph()}/me/events?$filter=${encodeURIComponent(`iCalUId eq '${uid}'`)}`,
      jordan,
    );
    const [copy] = found.body.value as Item[];
    // Exchange keeps an unanswered request as a tentative copy.
    expect(copy).toMatchObject({ subject: "Design crit", showAs: "tentative", isOrganizer: false });
    const declined = await call(`${graph()}/me/events/${copy?.id}/decline`, jordan, {
      method: "POST",
      body: { sendResponse: true, comment: "" },
    });
    expect(declined.status).toBe(202);
    const organizerCopy = (await calendarOf("casey.kim@outlook.com", "microsoft")).find((e) => e.uid === uid);
    expect(organizerCopy?.attendees).toContainEqual({
      email: "jordan.lee@outlook.com",
      response: "declined",
    });
    const [reply] = await mailOf("casey.kim@outlook.com", "microsoft", "Declined: Design crit");
    expect(reply).toMatch(/PARTSTAT=DECLINED/);
    const own = await call(`${graph()}/me/events/${created.body.id}/accept`, casey, {
      method: "POST",
      body: {},
    });
    expect(own.status).toBe(400);
  });

  it("puts the admin route's demo invitation in its organizer's calendar, so answering it reaches them", async () => {
    const delivered = await call(
      `${emu.url}/_admin/mailboxes/jordan.lee@outlook.com/invitation?provider=microsoft`,
      "",
      { method: "POST", body: { organizer: { name: "Priya Shah", address: "priya.shah@gmail.com" } } },
    );
    expect(delivered.status).toBe(201);
    const [mail, ...more] = await mailOf("jordan.lee@outlook.com", "microsoft", "Invitation: Roadmap review");
    expect(more).toEqual([]);
    const uid = /UID:(\S+)/.exec(mail ?? "")?.[1];
    expect(uid).toBeDefined();
    const event = (await calendarOf("priya.shah@gmail.com", "google")).find((e) => e.uid === uid);
    expect(event).toMatchObject({ summary: "Roadmap review", organizer: "priya.shah@gmail.com" });
    expect(event?.attendees).toContainEqual({ email: "jordan.lee@outlook.com", response: "needsAction" });
    expect(mail).toContain(`SEQUENCE:${(event as { sequence?: number } | undefined)?.sequence ?? -1}`);

    // Jordan's calendar holds the copy, as Exchange puts a request there; accepting it reaches Priya.
    const jordan = await tokenFor(
      emu,
      "microsoft",
      "jordan.lee@outlook.com",
      "openid User.Read Calendars.ReadWrite",
    );
    const found = await call(
      `${graph()}/me/events?$filter=${encodeURIComponent(`iCalUId eq '${uid}'`)}`,
      jordan,
    );
    const [copy] = found.body.value as Item[];
    expect(copy).toMatchObject({ subject: "Roadmap review" });
    const accepted = await call(`${graph()}/me/events/${copy?.id}/accept`, jordan, {
      method: "POST",
      body: { sendResponse: true },
    });
    expect(accepted.status).toBe(202);
    const after = (await calendarOf("priya.shah@gmail.com", "google")).find((e) => e.uid === uid);
    expect(after?.attendees).toContainEqual({ email: "jordan.lee@outlook.com", response: "accepted" });
    expect(await mailOf("priya.shah@gmail.com", "google", "Accepted: Roadmap review")).toHaveLength(1);

    // An organizer from elsewhere has no calendar here: only the mail goes.
    const outside = await call(
      `${emu.url}/_admin/mailboxes/sam.taylor@gmail.com/invitation?provider=google`,
      "",
      { method: "POST", body: { organizer: { name: "Kim", address: "kim@example.com" } } },
    );
    expect(outside.status).toBe(201);
    expect(await mailOf("sam.taylor@gmail.com", "google", "Invitation: Roadmap review")).toHaveLength(1);
    expect((await calendarOf("sam.taylor@gmail.com", "google")).map((e) => e.summary)).not.toContain(
      "Roadmap review",
    );
  });

  it("puts the seeded demo invitation in its organizer's calendar, and a mailed reply is applied there", async () => {
    const seeded = await startTestEmulator();
    try {
      const admin = (path: string) => call(`${seeded.url}/_admin/${path}`, "");
      const box = (await admin("mailboxes/alex.morgan@gmail.com?provider=google&limit=50")).body.messages as {
        id: string;
        subject: string;
      }[];
      const invitation = box.find((m) => m.subject.startsWith("Invitation: Roadmap review"));
      expect(invitation).toBeDefined();
      const raw = str(
        (await admin(`mailboxes/alex.morgan@gmail.com/messages/${invitation?.id}?provider=google`)).body,
        "raw",
      );
      const uid = /UID:(\S+)/.exec(raw)?.[1];
      const organizer = /^From: .*<([^>]+)>/m.exec(raw)?.[1] ?? "";
      expect(organizer).not.toBe("");
      const events = (await admin(`calendars/${organizer}`)).body.events as unknown as AdminEvent[];
      const event = events.find((e) => e.uid === uid);
      expect(event).toMatchObject({ summary: "Roadmap review", organizer });
      expect(event?.attendees).toContainEqual({ email: "alex.morgan@gmail.com", response: "needsAction" });
      const copies = (await admin("calendars/alex.morgan@gmail.com?provider=google")).body
        .events as unknown as AdminEvent[];
      expect(copies.find((e) => e.uid === uid)).toMatchObject({ organizer });

      // Alex answers from a mail app (an iMIP reply through Gmail's send): the organizer's event changes.
      const alex = await tokenFor(
        seeded,
        "google",
        "alex.morgan@gmail.com",
        "openid email https://www.googleapis.com/auth/gmail.send",
      );
      const reply = [
        "From: alex.morgan@gmail.com",
        `To: ${organizer}`,
        "Subject: Declined: Roadmap review",
        "MIME-Version: 1.0",
        'Content-Type: text/calendar; charset="UTF-8"; method=REPLY',
        "",
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//Test//EN",
        "METHOD:REPLY",
        "BEGIN:VEVENT",
        `UID:${uid}`,
        "DTSTAMP:20260101T000000Z",
        `ORGANIZER:mailto:${organizer}`,
        "ATTENDEE;PARTSTAT=DECLINED:mailto:alex.morgan@gmail.com",
        "SEQUENCE:0",
        "END:VEVENT",
        "END:VCALENDAR",
        "",
      ].join("\r\n");
      const sent = await call(`${seeded.url}/gmail.googleapis.com/gmail/v1/users/me/messages/send`, alex, {
        method: "POST",
        body: { raw: Buffer.from(reply, "utf8").toString("base64url") },
      });
      expect(sent.status).toBe(200);
      const after = ((await admin(`calendars/${organizer}`)).body.events as unknown as AdminEvent[]).find(
        (e) => e.uid === uid,
      );
      expect(after?.attendees).toContainEqual({ email: "alex.morgan@gmail.com", response: "declined" });
    } finally {
      await seeded.close();
    }
  });

  it("applies an iMIP reply mailed by any client to the organizer's event", async () => {
    const made = await call(`${emu.url}/_admin/calendars/priya.shah@gmail.com/events?provider=google`, "", {
      method: "POST",
      body: {
        summary: "Offsite logistics",
        start: { local: `${day()}T16:00:00`, timeZone: "UTC" },
        end: { local: `${day()}T17:00:00`, timeZone: "UTC" },
        attendees: [{ email: "jordan.lee@outlook.com" }],
        sendUpdates: "all",
      },
    });
    expect(made.status).toBe(201);
    const uid = str(made.body, "uid");
    // Jordan answers from a mail client: a text/calendar METHOD:REPLY through Gmail-style send.
    const jordan = await tokenFor(emu, "microsoft", "jordan.lee@outlook.com", "openid User.Read Mail.Send");
    const ics = [
      "BEGIN:VCALENDAR",
      "VERSION:2.0",
      "PRODID:-//Test//EN",
      "METHOD:REPLY",
      "BEGIN:VEVENT",
      `UID:${uid}`,
      "DTSTAMP:20260101T000000Z",
      "ORGANIZER:mailto:priya.shah@gmail.com",
      "ATTENDEE;PARTSTAT=TENTATIVE:mailto:jordan.lee@outlook.com",
      "SEQUENCE:0",
      "END:VEVENT",
      "END:VCALENDAR",
      "",
    ].join("\r\n");
    const mime = [
      "From: jordan.lee@outlook.com",
      "To: priya.shah@gmail.com",
      "Subject: Tentative: Offsite logistics",
      "MIME-Version: 1.0",
      'Content-Type: text/calendar; charset="UTF-8"; method=REPLY',
      "",
      ics,
    ].join("\r\n");
    const sent = await fetch(`${graph()}/me/sendMail`, {
      method: "POST",
      headers: { authorization: `Bearer ${jordan}`, "content-type": "text/plain" },
      body: Buffer.from(mime, "utf8").toString("base64"),
    });
    expect(sent.status).toBe(202);
    const event = (await calendarOf("priya.shah@gmail.com", "google")).find((e) => e.uid === uid);
    expect(event?.attendees).toContainEqual({ email: "jordan.lee@outlook.com", response: "tentative" });
  });
});
