import { describe, expect, it } from "vitest";
import { emailAnalyticsSchema } from "../../contract/mail.ts";
import { apiSuite } from "../test/api-suite.ts";
import { BACKENDS } from "../test/databases.ts";
import { createEmail, createEmails, signedInUser } from "../test/factories.ts";

const DAY = 86_400_000;
const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe.each(BACKENDS)("GET /api/emails/analytics on %s", (kind) => {
  const suite = apiSuite(kind);
  const { api } = suite;

  it("counts mail received and read per UTC day and the top senders, for the signed-in person only", async () => {
    const { account, token } = await signedInUser(suite.db);
    const noon = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate(), 12);
    // Today: 3 from Priya (2 read today), 1 from Bo; two days ago: 2 from Bo; 20 days ago: outside 14 days.
    await createEmails(suite.db, account, 3, (i) => ({
      fromName: "Priya Shah",
      fromAddress: i === 0 ? "Priya@Example.com" : "priya@example.com",
      receivedAt: new Date(noon - i * 60_000),
      isRead: i < 2,
      readAt: i < 2 ? new Date(noon) : null,
    }));
    await createEmail(suite.db, account, {
      fromName: "Bo",
      fromAddress: "bo@example.com",
      receivedAt: new Date(noon),
    });
    await createEmails(suite.db, account, 2, () => ({
      fromName: "Bo",
      fromAddress: "bo@example.com",
      receivedAt: new Date(noon - 2 * DAY),
    }));
    await createEmail(suite.db, account, {
      fromAddress: "old@example.com",
      receivedAt: new Date(noon - 20 * DAY),
    });
    // Not received mail: the person's own sent mail, trash and spam.
    await createEmail(suite.db, account, {
      isSent: true,
      fromAddress: "me@example.com",
      receivedAt: new Date(noon),
    });
    await createEmail(suite.db, account, {
      isTrashed: true,
      fromAddress: "x@example.com",
      receivedAt: new Date(noon),
    });
    await createEmail(suite.db, account, {
      isSpam: true,
      fromAddress: "y@example.com",
      receivedAt: new Date(noon),
    });
    // Another person's mail never counts.
    const other = await signedInUser(suite.db);
    await createEmails(suite.db, other.account, 4, () => ({
      fromAddress: "priya@example.com",
      receivedAt: new Date(noon),
    }));

    const r = await api("GET", "/api/emails/analytics", token);
    expect(r.status).toBe(200);
    const body = emailAnalyticsSchema.parse(r.json);
    expect(body.days).toHaveLength(14);
    expect(body.days.at(-1)).toEqual({ date: utcDate(noon), received: 4, read: 2 });
    expect(body.days.at(-3)).toEqual({ date: utcDate(noon - 2 * DAY), received: 2, read: 0 });
    expect(body.days.reduce((n, d) => n + d.received, 0)).toBe(6);
    // Addresses are counted case-blind; a tie is ordered by address.
    expect(body.topSenders).toEqual([
      { name: "Bo", address: "bo@example.com", count: 3 },
      { name: "Priya Shah", address: "priya@example.com", count: 3 },
    ]);
  });

  it("takes a window of 7 to 90 days and refuses anything else with a clear error", async () => {
    const { token } = await signedInUser(suite.db);
    const week = await api("GET", "/api/emails/analytics?days=7", token);
    expect(emailAnalyticsSchema.parse(week.json).days).toHaveLength(7);
    expect(emailAnalyticsSchema.parse(week.json).topSenders).toEqual([]);
    for (const bad of ["3", "91", "abc"]) {
      const r = await api("GET", `/api/emails/analytics?days=${bad}`, token);
      expect(r.status).toBe(400);
      expect(r.json).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
    }
  });

  it("needs a session", async () => {
    const r = await api("GET", "/api/emails/analytics", "not-a-token");
    expect(r.status).toBe(401);
  });
});
