import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  notificationSettingsSchema,
  pushPayloadSchema,
  vapidKeyResponseSchema,
} from "../../contract/notifications.ts";
import { notifiedEmails, pushSubscriptions } from "../db/schema.ts";
import { PEOPLE } from "../test/auth-fixture.ts";
import { callApi } from "../test/slow-provider.ts";
import { type SyncFixture, startSyncFixture, waitUntil } from "../test/sync-fixture.ts";

interface EmulatorSubscription {
  id: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
}
interface ReceivedPush {
  payload: string | null;
  error: string | null;
}

/**
 * Issue 38's notifications end to end: the real server, sync from the emulator's Gmail, the
 * analysis, the notifier, web-push's encryption, and the emulator's push service decrypting what
 * arrived with the subscription's private key.
 */
describe("notifications by Web Push (pglite)", () => {
  let f: SyncFixture;
  let alex: { token: string; accountId: string; userId: string };
  let sub: EmulatorSubscription;

  beforeAll(async () => {
    f = await startSyncFixture("pglite");
    alex = await f.signIn("gmail", PEOPLE.alex);
  }, 180_000);
  afterAll(async () => {
    await f?.close();
  });

  const api = (method: string, path: string, body?: unknown) => callApi(f, method, path, alex.token, body);

  async function deliver(input: Record<string, unknown>): Promise<string> {
    const r = await f.admin("POST", `mailboxes/${encodeURIComponent(PEOPLE.alex)}/messages`, input);
    expect(r.status).toBe(201);
    const subject = input.subject as string;
    const row = await waitUntil(
      async () => (await f.rows(alex.accountId)).find((e) => e.subject === subject && e.aiAnalysis !== null),
      20_000,
      `"${subject}" synced and analysed`,
    );
    return row.id;
  }

  async function pushes(): Promise<ReceivedPush[]> {
    const r = await f.admin("GET", `push/received?subscription=${sub.id}`);
    return (r.json as { pushes: ReceivedPush[] }).pushes;
  }

  async function decided(emailId: string) {
    return waitUntil(
      async () =>
        (
          await f.database.database.db
            .select()
            .from(notifiedEmails)
            .where(eq(notifiedEmails.emailId, emailId))
        )[0],
      20_000,
      "the notification decision",
    );
  }

  it("is off until turned on, and refuses bad settings with 400", async () => {
    const initial = await api("GET", "/api/notifications/settings");
    expect(initial.status).toBe(200);
    expect(notificationSettingsSchema.parse(initial.json).mode).toBe("off");
    for (const bad of [
      { mode: "loud" },
      { quietHours: { start: "25:00", end: "07:00" } },
      { timeZone: "Mars/Olympus" },
      { mutedAccountIds: ["00000000-0000-4000-8000-000000000000"] },
      {},
    ]) {
      const r = await api("PUT", "/api/notifications/settings", bad);
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect((r.json.error as { code: string }).code).toBe("validation_failed");
    }
    const on = await api("PUT", "/api/notifications/settings", {
      mode: "important",
      timeZone: "Europe/Paris",
      quietHours: null,
    });
    expect(on.status).toBe(200);
    expect(notificationSettingsSchema.parse(on.json)).toEqual({
      mode: "important",
      mutedAccountIds: [],
      quietHours: null,
      timeZone: "Europe/Paris",
    });
  });

  it("registers a browser's subscription made with the server's VAPID key; refuses a private endpoint", async () => {
    const key = await api("GET", "/api/notifications/vapid-key");
    const { publicKey } = vapidKeyResponseSchema.parse(key.json);
    const created = await f.admin("POST", "push/subscriptions", { applicationServerKey: publicKey });
    sub = created.json as EmulatorSubscription;
    const added = await api("POST", "/api/notifications/subscriptions", {
      endpoint: sub.endpoint,
      expirationTime: null,
      keys: sub.keys,
    });
    expect(added.status).toBe(201);
    const internal = await api("POST", "/api/notifications/subscriptions", {
      endpoint: "http://169.254.169.254/latest/meta-data",
      keys: sub.keys,
    });
    expect(internal.status).toBe(400);
    // Sign-out removes this browser's subscription; only the person's own endpoint goes.
    const other = (await f.admin("POST", "push/subscriptions", {})).json as EmulatorSubscription;
    expect(
      (await api("POST", "/api/notifications/subscriptions", { endpoint: other.endpoint, keys: other.keys }))
        .status,
    ).toBe(201);
    expect(
      (await api("DELETE", "/api/notifications/subscriptions", { endpoint: other.endpoint })).status,
    ).toBe(204);
    const left = await f.database.database.db
      .select({ endpoint: pushSubscriptions.endpoint })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, alex.userId));
    expect(left).toEqual([{ endpoint: sub.endpoint }]);
  });

  it("pushes an important mail with sender and subject only, encrypted; a newsletter pushes nothing", async () => {
    const important = await deliver({
      from: { name: "Priya Shah", address: PEOPLE.priya },
      subject: "Could you approve the budget today?",
      text: "Hi Alex, the vendor needs the signed budget today. Could you approve it? The secret code is 4471.",
    });
    const got = await waitUntil(
      async () => {
        const list = await pushes();
        return list.length > 0 ? list : undefined;
      },
      20_000,
      "a push at the emulator",
    );
    expect(got).toHaveLength(1);
    expect(got[0]?.error).toBeNull();
    const payload = pushPayloadSchema.parse(JSON.parse(got[0]?.payload ?? "null"));
    expect(payload).toEqual({
      type: "mail",
      emailId: important,
      from: "Priya Shah",
      subject: "Could you approve the budget today?",
    });
    expect(got[0]?.payload).not.toContain("4471");

    const newsletter = await deliver({
      from: { name: "The Weekly Digest", address: "digest@news.example.com" },
      subject: "This week in gardening: 10 tips",
      text: "Our top stories this week. Unsubscribe at any time.",
      headers: {
        "List-Unsubscribe": "<https://news.example.com/u/123>",
        "List-Id": "<weekly.news.example.com>",
      },
    });
    expect((await decided(newsletter)).outcome).toBe("bulk");
    expect(await pushes()).toHaveLength(1);
  });

  it("never notifies the same mail twice, even when the notifier runs again", async () => {
    await f.services.notifications.notifier.request(alex.userId);
    await f.services.notifications.notifier.idle();
    expect(await pushes()).toHaveLength(1);
  });

  it("removes a subscription the push service answers 410 for", async () => {
    const revoked = await f.admin("POST", `push/subscriptions/${sub.id}/revoke`);
    expect(revoked.status).toBe(200);
    const id = await deliver({
      from: { name: "Priya Shah", address: PEOPLE.priya },
      subject: "Can you call me back before noon?",
      text: "Please call me back, it is urgent.",
    });
    expect((await decided(id)).outcome).toBe("notified");
    await waitUntil(
      async () =>
        (
          await f.database.database.db
            .select()
            .from(pushSubscriptions)
            .where(eq(pushSubscriptions.userId, alex.userId))
        ).length === 0,
      10_000,
      "the revoked subscription removed",
    );
  });
});
