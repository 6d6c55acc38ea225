import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { RETENTION_DAYS } from "../../contract/privacy.ts";
import { buildApp } from "../app.ts";
import { createTokenVault, loadSecretKey } from "../auth/token-vault.ts";
import {
  agentDrafts,
  agentMemories,
  authTickets,
  calendarConnectTickets,
  calendarEvents,
  calendarIntegrations,
  emails,
  mailAccounts,
  sessions,
  users,
} from "../db/schema.ts";
import { JobQueue } from "../jobs/queue.ts";
import { type AuthFixture, PEOPLE, startAuthFixture, TEST_OAUTH_CLIENTS } from "../test/auth-fixture.ts";
import { BACKENDS } from "../test/databases.ts";
import { waitUntil } from "../test/sync-fixture.ts";
import { NO_USER_DATA, USER_DATA_TABLES } from "./registry.ts";

/**
 * The privacy API over real HTTP on a real server and database, with the emulator as Google and
 * Microsoft: settings, retention, the export, immediate and scheduled deletion, and the registry
 * of tables holding a person's data checked against the live schema.
 */

const DAY = 86_400_000;

describe.each(BACKENDS)("privacy API on %s", (kind) => {
  let f: AuthFixture;
  let alex: string;

  const db = () => f.database.database.db;
  const userIdOf = async (email: string) => {
    const [row] = await db()
      .select({ userId: mailAccounts.userId })
      .from(mailAccounts)
      .where(eq(mailAccounts.email, email));
    return row?.userId;
  };
  const mailCount = async (userId: string) =>
    (await db().select({ id: emails.id }).from(emails).where(eq(emails.userId, userId))).length;

  async function deliver(email: string, subject: string, daysAgo: number) {
    const answer = await f.emulatorAdmin(`mailboxes/${encodeURIComponent(email)}/messages`, {
      from: { name: "Dana Old", address: "dana@example.org" },
      subject,
      text: `${subject} body text`,
      internalDate: Date.now() - daysAgo * DAY,
    });
    expect(answer.status).toBe(201);
  }

  /** A raw query's rows (the shared Db type leaves the driver's result shape open). */
  async function rowsOf<T>(query: ReturnType<typeof sql>): Promise<T[]> {
    return ((await db().execute(query)) as unknown as { rows: T[] }).rows;
  }

  /** Moves the server clock forward and answers its now. */
  async function moveClock(seconds: number): Promise<Date> {
    const answer = await f.moveClock(seconds);
    return new Date(String(answer.json?.now));
  }

  async function countRows(
    table: string,
    owner: (typeof USER_DATA_TABLES)[string]["owner"],
    ids: { user: string; accounts: string[] },
  ) {
    const where =
      "userColumn" in owner
        ? sql`${sql.identifier(owner.userColumn)} = ${ids.user}`
        : sql`${sql.identifier(owner.accountColumn)}::text in (select jsonb_array_elements_text(${JSON.stringify(ids.accounts)}::jsonb))`;
    const rows = await rowsOf<{ n: string | number }>(
      sql`select count(*) as n from ${sql.identifier(table)} where ${where}`,
    );
    return Number(rows[0]?.n ?? 0);
  }

  beforeAll(async () => {
    f = await startAuthFixture(
      kind,
      { PRIVACY_SWEEP_SECONDS: "1", SYNC_DEPTH_DAYS: "3650" },
      { seedCorpus: false },
      { role: "all" },
    );
    // Mail from 10 days, 120 days and 3 years ago: standard retention (2 years) keeps the first
    // two, minimal (90 days) only the first.
    await deliver(PEOPLE.alex, "Recent note", 10);
    await deliver(PEOPLE.alex, "Spring invoice", 120);
    await deliver(PEOPLE.alex, "Ancient thread", 3 * 365);
    alex = await f.signIn("gmail", PEOPLE.alex);
  });
  afterAll(async () => {
    await f?.close();
  });

  it("answers the defaults, takes one changed setting at a time and refuses anything else", async () => {
    const first = await f.api("GET", "/api/privacy/settings", { token: alex });
    expect(first.status).toBe(200);
    expect(first.json).toEqual({
      doNotSell: false,
      analyticsOptOut: false,
      marketingOptOut: false,
      dataRetention: "standard",
      deletionScheduledFor: null,
    });
    const changed = await f.api("POST", "/api/privacy/settings", { token: alex, body: { doNotSell: true } });
    expect(changed.status).toBe(200);
    expect(changed.json).toMatchObject({
      doNotSell: true,
      analyticsOptOut: false,
      dataRetention: "standard",
    });
    for (const body of [
      {},
      { doNotSell: "yes" },
      { doNotSell: true, analyticsOptOut: true },
      { dataRetention: "forever" },
      { retention: "minimal" },
      [],
    ]) {
      const bad = await f.api("POST", "/api/privacy/settings", { token: alex, body });
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.json?.error).toMatchObject({ code: "validation_failed" });
    }
    expect((await f.api("POST", "/api/privacy/settings", { body: { doNotSell: true } })).status).toBe(401);
    const after = await f.api("GET", "/api/privacy/settings", { token: alex });
    expect(after.json).toMatchObject({ doNotSell: true, analyticsOptOut: false, marketingOptOut: false });
  });

  it("removes exactly Mailwise's copies older than the retention, daily, and never the provider's", async () => {
    const userId = (await userIdOf(PEOPLE.alex)) as string;
    await waitUntil(async () => (await mailCount(userId)) === 3, 30_000, "the three mails synced");
    // The sweep runs every second, but each person's retention once a day: a day later on the
    // server clock, standard retention (2 years) removes the 3-year-old copy only.
    await moveClock(86_400 + 60);
    await waitUntil(async () => (await mailCount(userId)) === 2, 20_000, "standard retention");
    const [spring] = await db().select().from(emails).where(eq(emails.subject, "Spring invoice"));
    const [recent] = await db().select().from(emails).where(eq(emails.subject, "Recent note"));
    if (!spring || !recent) throw new Error("synced mail missing");
    const now = new Date();
    await db()
      .insert(agentMemories)
      .values([
        {
          userId,
          kind: "fact",
          key: "spring invoice due",
          content: "Spring invoice due",
          source: "analysis",
          mailReceivedAt: spring.receivedAt,
          createdAt: now,
          updatedAt: now,
        },
        {
          userId,
          kind: "fact",
          key: "recent note",
          content: "Recent note",
          source: "analysis",
          mailReceivedAt: recent.receivedAt,
          createdAt: now,
          updatedAt: now,
        },
      ]);
    await db().insert(agentDrafts).values({
      userId,
      emailId: spring.id,
      accountEmail: PEOPLE.alex,
      toAddress: "dana@example.org",
      subject: "Re: Spring invoice",
      engine: "local",
      status: "drafted",
    });
    const minimal = await f.api("POST", "/api/privacy/settings", {
      token: alex,
      body: { dataRetention: "minimal" },
    });
    expect(minimal.json).toMatchObject({ dataRetention: "minimal" });
    // The daily run already happened today: nothing changes until the server clock passes a day.
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await mailCount(userId)).toBe(2);
    await moveClock(86_400 + 60);
    await waitUntil(async () => (await mailCount(userId)) === 1, 20_000, "minimal retention");
    const left = await db().select({ subject: emails.subject }).from(emails).where(eq(emails.userId, userId));
    expect(left.map((r) => r.subject)).toEqual(["Recent note"]);
    const memories = await db()
      .select({ key: agentMemories.key })
      .from(agentMemories)
      .where(eq(agentMemories.userId, userId));
    expect(memories.map((m) => m.key)).toEqual(["recent note"]);
    expect(await db().select().from(agentDrafts).where(eq(agentDrafts.userId, userId))).toEqual([]);
    // The provider's mailbox still holds all three.
    const mailbox = await fetch(`${f.emulator.url}/_admin/mailboxes/${encodeURIComponent(PEOPLE.alex)}`);
    expect(((await mailbox.json()) as { messagesTotal: number }).messagesTotal).toBe(3);
    expect(RETENTION_DAYS.minimal).toBe(90);
  });

  it("registers every table of the schema, and exports every row of a person with data in each, without secrets", async () => {
    const tables = await rowsOf<{ table_name: string }>(
      sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
    );
    const names = tables.map((r) => r.table_name).sort();
    expect(names).toEqual([...Object.keys(USER_DATA_TABLES), ...Object.keys(NO_USER_DATA)].sort());

    const userId = (await userIdOf(PEOPLE.alex)) as string;
    const [account] = await db().select().from(mailAccounts).where(eq(mailAccounts.userId, userId));
    if (!account) throw new Error("no account");
    // Data in every table: the API where it can make it, rows otherwise.
    expect(
      (await f.api("POST", "/api/agent", { token: alex, body: { name: "Ada", personality: "calm" } })).status,
    ).toBeLessThan(300);
    expect(
      (await f.api("POST", "/api/ai/improve-text", { token: alex, body: { text: "hi can u send the file" } }))
        .status,
    ).toBe(200);
    const [mail] = await db().select().from(emails).where(eq(emails.userId, userId));
    if (!mail) throw new Error("no mail");
    await db().insert(agentDrafts).values({
      userId,
      emailId: mail.id,
      accountEmail: account.email,
      toAddress: "dana@example.org",
      subject: "Re: note",
      engine: "local",
      status: "drafted",
    });
    await f.start("gmail", { token: alex }); // a link flow in progress: oauth_states names the person
    const now = new Date();
    const [session] = await db().select().from(sessions).where(eq(sessions.userId, userId));
    await db()
      .insert(authTickets)
      .values({
        ticketHash: "a".repeat(64),
        purpose: "claim",
        userId,
        flowHash: "b".repeat(64),
        createdAt: now,
        expiresAt: now,
      });
    await db()
      .insert(calendarConnectTickets)
      .values({
        ticketHash: "c".repeat(64),
        userId,
        sessionId: session?.id ?? "",
        flowHash: "d".repeat(64),
        createdAt: now,
        expiresAt: now,
      });
    const [integration] = await db()
      .insert(calendarIntegrations)
      .values({
        userId,
        accountId: account.id,
        provider: "google",
        email: account.email,
        accessTokenCiphertext: account.accessTokenCiphertext,
        refreshTokenCiphertext: account.refreshTokenCiphertext,
      })
      .returning();
    await db()
      .insert(calendarEvents)
      .values({
        userId,
        integrationId: integration?.id ?? "",
        providerEventId: "evt-1",
        title: "Standup",
        allDay: false,
        startAt: now,
        endAt: now,
        status: "confirmed",
        attendees: [],
      });
    await db().execute(
      sql`insert into unsubscribe_requests (user_id, sender_address, method, status) values (${userId}, 'news@example.org', 'none', 'manual')`,
    );
    await db().execute(
      sql`insert into invitation_answers (user_id, email_id, response, via, answered_from, organizer, answered_at) values (${userId}, ${mail.id}, 'accepted', 'email', ${account.email}, 'priya.shah@gmail.com', now())`,
    );
    await db().execute(
      sql`insert into game_profiles (user_id, joined_at) values (${userId}, now()) on conflict (user_id) do nothing`,
    );
    await db().execute(
      sql`insert into game_badges (user_id, badge_id, earned_at) values (${userId}, 'first-steps', now()) on conflict do nothing`,
    );
    await db().execute(
      sql`insert into game_ledger (user_id, kind, key) values (${userId}, 'ai', 'privacy-test') on conflict do nothing`,
    );
    await db().execute(
      sql`insert into ai_usage (user_id, task, engine, outcome) values (${userId}, 'drafting', 'local', 'ok')`,
    );
    await db().execute(
      sql`insert into ai_budget (user_id, day, day_calls, minute, minute_calls) values (${userId}, date_trunc('day', now()), 1, date_trunc('minute', now()), 1)`,
    );
    await db().execute(
      sql`insert into agent_memories (user_id, kind, key, content, source) values (${userId}, 'contact', 'dana@example.org', 'Dana matters', 'reply')`,
    );
    await db().execute(
      sql`insert into contacts (user_id, address, name, sent_count, last_used_at) values (${userId}, 'dana@example.org', 'Dana', 1, now()) on conflict do nothing`,
    );
    // A held mail (Undo send): its content is the person's until it is sent.
    await db().execute(
      sql`insert into due_actions (user_id, kind, run_at, payload, ref) values (${userId}, 'send', now() + interval '1 hour', ${JSON.stringify({ request: { to: "dana@example.org", subject: "Held", body: "Later" }, messageId: "<held@example.org>" })}::jsonb, '<held@example.org>')`,
    );
    await db().execute(
      sql`insert into uploads (user_id, file_name, content_type, size, path, expires_at) values (${userId}, 'plan.pdf', 'application/pdf', 3, ${`${userId}/0123`}, now() + interval '1 day')`,
    );
    // Notifications (issue 38): the setting, a browser's push subscription, a mail's decision.
    await db().execute(
      sql`insert into notification_settings (user_id, mode, enabled_at) values (${userId}, 'important', now()) on conflict do nothing`,
    );
    await db().execute(
      sql`insert into push_subscriptions (user_id, endpoint, p256dh, auth) values (${userId}, 'https://push.example.com/send/1', 'p256dh-key', 'auth-secret') on conflict do nothing`,
    );
    await db().execute(
      sql`insert into notified_emails (email_id, user_id, outcome) values (${mail.id}, ${userId}, 'notified') on conflict do nothing`,
    );

    const answer = await f.api("POST", "/api/privacy/export", { token: alex });
    expect(answer.status).toBe(200);
    const day = (await moveClock(0)).toISOString().slice(0, 10);
    expect(answer.headers.get("content-disposition")).toBe(
      `attachment; filename="mailwise-export-${day}.json"`,
    );
    const file = JSON.parse(answer.text) as Record<string, unknown>;
    const ids = { user: userId, accounts: [account.id] };
    for (const [table, entry] of Object.entries(USER_DATA_TABLES)) {
      const rows = await countRows(table, entry.owner, ids);
      expect(rows, `${table} has no rows: seed it`).toBeGreaterThan(0);
      if (typeof entry.export !== "string") continue;
      const section = file[entry.export];
      const exported = Array.isArray(section) ? section.length : section ? 1 : 0;
      expect(exported, `${table} rows in the export`).toBe(rows);
    }
    const emailsOut = file.emails as Array<Record<string, unknown>>;
    expect(emailsOut[0]).toMatchObject({
      subject: "Recent note",
      bodyText: expect.stringContaining("Recent note body text"),
    });
    expect(emailsOut[0]).toHaveProperty("aiAnalysis");
    // No secrets: token ciphertexts, plaintext tokens, session hashes, the bearer token.
    const vault = createTokenVault([await loadSecretKey(f.server.config)]);
    const secrets = [
      account.accessTokenCiphertext,
      account.refreshTokenCiphertext ?? "",
      vault.decrypt(account.accessTokenCiphertext, "provider-access-token"),
      account.refreshTokenCiphertext
        ? vault.decrypt(account.refreshTokenCiphertext, "provider-refresh-token")
        : "",
      alex,
      session?.tokenHash ?? "",
      "a".repeat(64),
    ].filter((s) => s.length > 8);
    for (const secret of secrets) expect(answer.text.includes(secret), "a secret in the export").toBe(false);
    for (const key of Object.keys(file)) expect(key.toLowerCase()).not.toMatch(/token|hash|cipher|secret/);
    expect((await f.api("POST", "/api/privacy/export")).status).toBe(401);
  });

  it("deletes at once: grants revoked at the provider, push stopped, every row and queued job gone, sessions ended; signing in again starts empty", async () => {
    const userId = (await userIdOf(PEOPLE.alex)) as string;
    const [account] = await db().select().from(mailAccounts).where(eq(mailAccounts.userId, userId));
    if (!account?.refreshTokenCiphertext) throw new Error("no refresh token");
    const vault = createTokenVault([await loadSecretKey(f.server.config)]);
    const refreshToken = vault.decrypt(account.refreshTokenCiphertext, "provider-refresh-token");
    const refresh = () =>
      fetch(`${f.emulator.url}/oauth2.googleapis.com/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "refresh_token",
          refresh_token: refreshToken,
          client_id: TEST_OAUTH_CLIENTS.gmail.clientId,
          client_secret: TEST_OAUTH_CLIENTS.gmail.clientSecret,
        }),
      });
    expect((await refresh()).status).toBe(200);
    const mailbox = async () =>
      (await (
        await fetch(`${f.emulator.url}/_admin/mailboxes/${encodeURIComponent(PEOPLE.alex)}`)
      ).json()) as {
        watch: unknown;
      };
    await waitUntil(async () => (await mailbox()).watch !== null, 20_000, "the Gmail watch");
    // A queued job about the person's account, due in an hour.
    const producer = new JobQueue(f.database.database);
    producer.define({
      name: "privacy.probe",
      schema: z.object({ accountId: z.string() }),
      handler: async () => {},
    });
    await producer.start();
    await producer.send("privacy.probe", { accountId: account.id }, { delayMs: 3_600_000 });
    await producer.stop();
    const ids = { user: userId, accounts: [account.id] };

    const answer = await f.api("POST", "/api/privacy/delete", { token: alex, body: { immediate: true } });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ deleted: true, scheduledFor: null });

    const refused = await refresh();
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: "invalid_grant" });
    expect((await mailbox()).watch).toBeNull();
    for (const [table, entry] of Object.entries(USER_DATA_TABLES)) {
      expect(await countRows(table, entry.owner, ids), `${table} rows left`).toBe(0);
    }
    const jobs = await rowsOf<{ n: string | number }>(
      sql`select count(*) as n from pgboss.job where state in ('created', 'retry') and (data::text like ${`%${userId}%`} or data::text like ${`%${account.id}%`})`,
    );
    expect(Number(jobs[0]?.n)).toBe(0);
    expect((await f.api("GET", "/api/auth/session", { token: alex })).status).toBe(401);

    const again = await f.signIn("gmail", PEOPLE.alex);
    const user = await f.sessionUser(again);
    expect(user.id).not.toBe(userId);
    expect((await f.api("GET", "/api/privacy/settings", { token: again })).json).toMatchObject({
      doNotSell: false,
      dataRetention: "standard",
    });
    expect(await db().select().from(users).where(eq(users.id, userId))).toEqual([]);
  });

  it("deletes an Outlook person at once: the Graph subscription is deleted at Microsoft, the rows are gone", async () => {
    const casey = await f.signIn("outlook", PEOPLE.casey);
    const userId = (await userIdOf(PEOPLE.casey)) as string;
    const subscriptions = async () =>
      (
        (await (
          await fetch(`${f.emulator.url}/_admin/mailboxes/${encodeURIComponent(PEOPLE.casey)}`)
        ).json()) as { subscriptions: number }
      ).subscriptions;
    await waitUntil(async () => (await subscriptions()) > 0 || undefined, 20_000, "the Graph subscription");

    const answer = await f.api("POST", "/api/privacy/delete", { token: casey, body: { immediate: true } });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ deleted: true, scheduledFor: null });
    // Microsoft offers no grant revocation an app can call; stopping the subscription is what it allows.
    // A renewal in flight during the deletion stops the one it made itself, just after the answer
    // (deletion-push-race.test.ts).
    await waitUntil(async () => (await subscriptions()) === 0 || undefined, 10_000, "no subscription");
    expect(await mailCount(userId)).toBe(0);
    expect(await db().select().from(users).where(eq(users.id, userId))).toEqual([]);
    expect((await f.api("GET", "/api/auth/session", { token: casey })).status).toBe(401);
  });

  it("schedules deletion 30 days ahead, cancels it, and carries it out at the date after a restart", async () => {
    const priya = await f.signIn("gmail", PEOPLE.priya);
    const userId = (await userIdOf(PEOPLE.priya)) as string;
    const before = (await moveClock(0)).getTime();
    const scheduled = await f.api("POST", "/api/privacy/delete", {
      token: priya,
      body: { immediate: false },
    });
    expect(scheduled.status).toBe(200);
    const at = Date.parse(String(scheduled.json?.scheduledFor));
    // 30 days after the server clock's now.
    expect(at - before).toBeGreaterThanOrEqual(30 * DAY);
    expect(at - before).toBeLessThanOrEqual(30 * DAY + 5 * 60_000);
    expect((await f.api("GET", "/api/privacy/settings", { token: priya })).json?.deletionScheduledFor).toBe(
      scheduled.json?.scheduledFor,
    );
    const cancelled = await f.api("POST", "/api/privacy/delete/cancel", { token: priya });
    expect(cancelled.json?.deletionScheduledFor).toBeNull();
    expect(
      (await f.api("POST", "/api/privacy/delete", { token: priya, body: { immediate: "soon" } })).status,
    ).toBe(400);
    await f.api("POST", "/api/privacy/delete", { token: priya, body: { immediate: false } });

    // A restart: a new process (and a new clock) over the same database.
    const url = new URL(f.server.url);
    await f.server.app.close();
    const app = await buildApp({ config: f.server.config, database: f.database.database, role: "all" });
    await app.listen({ host: "127.0.0.1", port: Number(url.port) });
    f.server.app = app;
    f.server.close = () => app.close();
    // The new process's clock starts at real time again, two days behind the old one.
    await moveClock(29 * 86_400);
    await new Promise((r) => setTimeout(r, 2_500));
    expect(await db().select({ id: users.id }).from(users).where(eq(users.id, userId))).toHaveLength(1);
    await moveClock(4 * 86_400);
    await waitUntil(
      async () => (await db().select({ id: users.id }).from(users).where(eq(users.id, userId))).length === 0,
      20_000,
      "the scheduled deletion",
    );
    expect(await db().select().from(mailAccounts).where(eq(mailAccounts.userId, userId))).toEqual([]);
  });
});
