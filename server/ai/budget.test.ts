import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { aiUsageResponseSchema, improveTextResponseSchema } from "../../contract/ai.ts";
import { type RunningEmulator, startEmulator } from "../../emulator/server.ts";
import { type Database, openDatabase } from "../db/client.ts";
import { createClock } from "../lib/clock.ts";
import { BACKENDS, openTestDatabase, type TestDatabase } from "../test/databases.ts";
import { createUser, signedInUser } from "../test/factories.ts";
import { startTestServer, type TestServer } from "../test/server.ts";
import { createAiBudget } from "./models/budget.ts";

/** 2026-11-24 10:00:30 UTC: half a minute into a minute, ten hours into a day. */
const T0 = Date.UTC(2026, 10, 24, 10, 0, 30);
const fixedClock = (at: number) => createClock(() => at);

describe.each(BACKENDS)("per-user AI budget on %s", (kind) => {
  let database: TestDatabase;
  let emulator: RunningEmulator;
  /** On PostgreSQL a second pool stands for a second process; PGlite has one owner process. */
  let other: Database;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    other = kind === "postgres" ? await openDatabase({ database: database.config }) : database.database;
    emulator = await startEmulator({ admin: true, clients: [], mail: { seedCorpus: false } });
  });
  afterAll(async () => {
    if (other !== database?.database) await other?.close();
    await emulator?.close();
    await database?.destroy();
  });

  describe("the counter", () => {
    it("lets exactly the limit through when calls race from two processes", async () => {
      const user = await createUser(database.database.db);
      const limits = { perMinute: 10, perDay: 100 };
      const a = createAiBudget(database.database.db, fixedClock(T0), limits);
      const b = createAiBudget(other.db, fixedClock(T0), limits);
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).take(user.id, "interactive")),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(10);
      const refused = results.find((r) => !r.ok);
      // 30 s left of the minute.
      expect(refused).toMatchObject({ ok: false, window: "minute", retryAfterSeconds: 30 });
      expect((await a.usage(user.id)).minute).toMatchObject({ used: 10, limit: 10 });
    });

    it("starts a new minute at one, and refuses for the rest of the UTC day once the day is spent", async () => {
      const user = await createUser(database.database.db);
      const clock = createClock(() => T0);
      const budget = createAiBudget(database.database.db, clock, { perMinute: 2, perDay: 3 });
      expect((await budget.take(user.id, "interactive")).ok).toBe(true);
      expect((await budget.take(user.id, "interactive")).ok).toBe(true);
      expect(await budget.take(user.id, "interactive")).toMatchObject({ ok: false, window: "minute" });
      clock.advance(60);
      expect((await budget.take(user.id, "interactive")).ok).toBe(true);
      expect((await budget.usage(user.id)).minute.used).toBe(1);
      expect((await budget.usage(user.id)).day.used).toBe(3);
      clock.advance(60);
      const refused = await budget.take(user.id, "interactive");
      // Until midnight UTC: 13 h 57 min 30 s after 10:02:30.
      expect(refused).toMatchObject({
        ok: false,
        window: "day",
        retryAfterSeconds: 13 * 3600 + 57 * 60 + 30,
      });
      clock.advance(14 * 3600);
      expect((await budget.take(user.id, "interactive")).ok).toBe(true);
      expect((await budget.usage(user.id)).day.used).toBe(1);
    });

    it("keeps a quarter of each window for what the person asks for", async () => {
      const user = await createUser(database.database.db);
      const budget = createAiBudget(database.database.db, fixedClock(T0), { perMinute: 4, perDay: null });
      const background = [];
      for (let i = 0; i < 4; i++) background.push((await budget.take(user.id, "background")).ok);
      expect(background).toEqual([true, true, true, false]);
      expect((await budget.take(user.id, "interactive")).ok).toBe(true);
      expect((await budget.take(user.id, "interactive")).ok).toBe(false);
      expect((await budget.usage(user.id)).day).toMatchObject({ used: 4, limit: null });
    });

    it("never moves a window back for a process whose clock is behind", async () => {
      const user = await createUser(database.database.db);
      const limits = { perMinute: 2, perDay: null };
      const ahead = createAiBudget(database.database.db, fixedClock(T0 + 60_000), limits);
      const behind = createAiBudget(other.db, fixedClock(T0), limits);
      expect((await ahead.take(user.id, "interactive")).ok).toBe(true);
      // Counted in the newer minute, not a fresh count for the older one.
      expect((await behind.take(user.id, "interactive")).ok).toBe(true);
      expect((await ahead.take(user.id, "interactive")).ok).toBe(false);
      expect((await behind.take(user.id, "interactive")).ok).toBe(false);
    });
  });

  describe("the API", () => {
    let servers: TestServer[] = [];
    const modelEnv = (perMinute: string) => ({
      DEMO_MODE: "off",
      PROVIDER_EMULATOR_URL: "http://127.0.0.1:9",
      AI_PROVIDER: "openai-compatible",
      AI_BASE_URL: `${emulator.url}/api.openai.com/v1`,
      AI_API_KEY: "sk-test-mailwise",
      AI_MODEL_ANALYSIS: "mw-emulated-small",
      AI_MODEL_DRAFTING: "mw-emulated-large",
      AI_CALLS_PER_MINUTE: perMinute,
      AI_CALLS_PER_DAY: "50",
    });
    const requests = async () =>
      ((await (await fetch(`${emulator.url}/_admin/openai/faults`)).json()) as { requests: number }).requests;

    beforeEach(async () => {
      await fetch(`${emulator.url}/_admin/openai/faults`, { method: "DELETE" });
    });
    afterAll(async () => {
      for (const s of servers) await s.close();
      servers = [];
    });

    async function improve(server: TestServer, token: string) {
      return fetch(`${server.url}/api/ai/improve-text`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ text: "i  think teh plan works" }),
      });
    }
    async function usage(server: TestServer, token: string) {
      const r = await fetch(`${server.url}/api/ai/usage`, { headers: { authorization: `Bearer ${token}` } });
      expect(r.status).toBe(200);
      return aiUsageResponseSchema.parse(await r.json());
    }

    it("answers 429 ai_budget_exceeded with Retry-After across two servers, and shows the count", async () => {
      const first = await startTestServer(database.database, modelEnv("3"));
      const second = await startTestServer(other, modelEnv("3"));
      servers.push(first, second);
      const { token } = await signedInUser(database.database.db);
      const before = await requests();

      const answers = [];
      for (const server of [first, second, first, second]) answers.push(await improve(server, token));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
      for (const a of answers.slice(0, 3))
        expect(improveTextResponseSchema.parse(await a.json()).engine).toBe(
          "openai-compatible:mw-emulated-large",
        );
      const refused = answers[3];
      const retryAfter = Number(refused?.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(await refused?.json()).toEqual({
        error: {
          code: "ai_budget_exceeded",
          message: `You have used your AI budget for this minute (3 model calls). Please try again in ${retryAfter} seconds.`,
        },
      });
      // The refused request never reached the model.
      expect((await requests()) - before).toBe(3);

      const figure = await usage(second, token);
      expect(figure).toMatchObject({
        provider: "openai-compatible",
        budgeted: true,
        requestsToday: 3,
        modelCalls: { minute: { used: 3, limit: 3 }, day: { used: 3, limit: 50 } },
      });
      // Someone else's budget is their own.
      const stranger = await signedInUser(database.database.db);
      expect((await improve(first, stranger.token)).status).toBe(200);
      expect((await usage(first, stranger.token)).modelCalls.minute.used).toBe(1);
    });

    it("sends background analysis to the local engine when the budget is spent", async () => {
      const server = await startTestServer(database.database, modelEnv("4"));
      servers.push(server);
      const { user } = await signedInUser(database.database.db);
      const before = await requests();
      const call = () =>
        server.app.ai.llm.structured({
          userId: user.id,
          task: "analysis",
          schema: improveTextResponseSchema,
          system: "s",
          prompt: "p",
          mode: "background",
        });
      // Background work has three of the four calls a minute; the fourth stays for the person.
      for (let i = 0; i < 3; i++) await call();
      expect(await call()).toEqual({
        ok: false,
        fallback: { from: "openai-compatible:mw-emulated-small", reason: "budget_exceeded" },
      });
      expect((await requests()) - before).toBe(3);
    });

    it("does not count the local engine", async () => {
      const server = await startTestServer(database.database, {
        DEMO_MODE: "off",
        PROVIDER_EMULATOR_URL: "http://127.0.0.1:9",
        AI_CALLS_PER_MINUTE: "1",
      });
      servers.push(server);
      const { token } = await signedInUser(database.database.db);
      for (let i = 0; i < 3; i++) expect((await improve(server, token)).status).toBe(200);
      expect(await usage(server, token)).toMatchObject({
        provider: "local",
        budgeted: false,
        requestsToday: 3,
        modelCalls: { minute: { used: 0, limit: 1 } },
      });
    });
  });
});
