import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/server.ts";
import { type Database, openDatabase } from "../db/client.ts";
import { notifiedEmails } from "../db/schema.ts";
import { createEventBus } from "../events.ts";
import { createClock } from "../lib/clock.ts";
import { openTestDatabase, type TestDatabase } from "../test/databases.ts";
import { createAccount, createEmails, createUser } from "../test/factories.ts";
import { TEST_VAPID_KEYS } from "../test/server.ts";
import { createNotificationServices, type NotificationServices } from "./index.ts";

/**
 * Two processes (two connections to one PostgreSQL database, each with its own notifier) react to
 * the same analysis at once: every new mail is pushed exactly once, mail already read never.
 */
describe("notifier across processes (postgres)", () => {
  let test: TestDatabase;
  let second: Database;
  let emulator: RunningEmulator;
  let a: NotificationServices;
  let b: NotificationServices;

  beforeAll(async () => {
    test = await openTestDatabase("postgres");
    second = await openDatabase({ database: test.config });
    emulator = await startEmulator({ clients: [], admin: true });
    const services = (db: Database) =>
      createNotificationServices({
        config: {
          dataDir: "/nonexistent",
          notifications: {
            vapidKeys: {
              publicKey: TEST_VAPID_KEYS.VAPID_PUBLIC_KEY,
              privateKey: TEST_VAPID_KEYS.VAPID_PRIVATE_KEY,
            },
            vapidSubject: "mailto:ops@example.com",
            pushAllowHosts: [new URL(emulator.url).host],
          },
        },
        db: db.db,
        clock: createClock(),
        events: createEventBus(),
        vipOf: async () => () => false,
        log: { warn: () => undefined },
      });
    a = await services(test.database);
    b = await services(second);
  }, 60_000);
  afterAll(async () => {
    await second?.close();
    await emulator?.close();
    await test?.destroy();
  });

  it("pushes each new mail once when both notifiers run together", async () => {
    const db = test.database.db;
    const user = await createUser(db);
    const account = await createAccount(db, user.id);
    await a.settings.update(user.id, { mode: "all", timeZone: "UTC" });
    const created = await fetch(`${emulator.url}/_admin/push/subscriptions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ applicationServerKey: TEST_VAPID_KEYS.VAPID_PUBLIC_KEY }),
    });
    const sub = (await created.json()) as {
      id: string;
      endpoint: string;
      keys: { p256dh: string; auth: string };
    };
    await b.subscriptions.add(user.id, { endpoint: sub.endpoint, keys: sub.keys });

    const analysis = { category: "personal", importance: 5, urgency: "low", security: { verdict: "safe" } };
    const mail = await createEmails(db, account, 6, (i) => ({
      subject: `New ${i}`,
      receivedAt: new Date(Date.now() - i * 1000),
      isRead: i === 5,
      aiAnalysis: analysis,
    }));
    await Promise.all([
      a.notifier.request(user.id),
      b.notifier.request(user.id),
      a.notifier.request(user.id),
      b.notifier.request(user.id),
    ]);
    await Promise.all([a.notifier.idle(), b.notifier.idle()]);

    const answer = await fetch(`${emulator.url}/_admin/push/received?subscription=${sub.id}`);
    const { pushes } = (await answer.json()) as { pushes: Array<{ payload: string }> };
    const ids = pushes.map((p) => (JSON.parse(p.payload) as { emailId: string }).emailId).sort();
    const unread = mail.filter((m) => !m.isRead).map((m) => m.id);
    expect(ids).toEqual([...unread].sort());
    const decisions = await db.select().from(notifiedEmails).where(eq(notifiedEmails.userId, user.id));
    expect(decisions).toHaveLength(6);
    expect(decisions.find((d) => d.emailId === mail[5]?.id)?.outcome).toBe("read");
  });
});
