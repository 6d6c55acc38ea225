import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIVE_EVENTS_PATH } from "../../contract/live-events.ts";
import { openTestDatabase, type TestDatabase } from "../test/databases.ts";
import { createEmails, signedInUser } from "../test/factories.ts";
import { startTestServer, type TestServer } from "../test/server.ts";

// The gate holds no database state, so one backend is enough: PostgreSQL (quicker to open).
describe("per-person fairness of the API", () => {
  let database: TestDatabase;
  let server: TestServer;
  /** One request at a time and a queue of one, so a burst overflows it. */
  let short: TestServer;

  const limits = (queue: number, concurrency = 2) => ({
    DEMO_MODE: "off",
    PROVIDER_EMULATOR_URL: "http://127.0.0.1:9",
    API_USER_CONCURRENCY: String(concurrency),
    API_USER_SHARE: "1",
    API_USER_QUEUE: String(queue),
  });

  beforeAll(async () => {
    database = await openTestDatabase("postgres");
    server = await startTestServer(database.database, limits(400));
    short = await startTestServer(database.database, limits(1, 1));
  }, 60_000);
  afterAll(async () => {
    await short?.close();
    await server?.close();
    await database?.destroy();
  });

  async function person() {
    const { account, token } = await signedInUser(database.database.db);
    await createEmails(database.database.db, account, 30);
    return token;
  }

  // A search of its own per request (every email, each with an exclusion of its own): the read cache (decision 0078) answers a repeated first page
  // from memory, and the burst must reach the gate as requests that each hold their slot.
  let n = 0;
  const list = (token: string, on = server) => {
    n += 1;
    return fetch(`${on.url}/api/emails?limit=25&q=subject%20-zz${n}`, {
      headers: { authorization: `Bearer ${token}` },
    });
  };

  /** Status, Retry-After and body of an answer, read whole (an unread body holds its connection). */
  const read = async (r: Response) => ({
    status: r.status,
    retryAfter: r.headers.get("retry-after"),
    body: (await r.json()) as { error?: { code: string; message: string } },
  });

  it("1,000 at once, past a person's queue: 429 rate_limited with Retry-After, in the API's error shape", async () => {
    const token = await person();
    const answers = await Promise.all(Array.from({ length: 1000 }, () => list(token, short).then(read)));
    const refused = answers.filter((r) => r.status === 429);
    const served = answers.filter((r) => r.status === 200);
    // One runs and one waits; what arrives while both are taken is refused, nothing fails.
    expect(refused.length).toBeGreaterThan(0);
    expect(served.length).toBeGreaterThanOrEqual(2);
    expect(served.length + refused.length).toBe(1000);
    for (const r of refused) {
      expect(Number(r.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(r.body.error?.code).toBe("rate_limited");
      expect(r.body.error?.message).toMatch(/Try again in \d+ seconds?/);
    }
    // The flood is over: the same person is served again.
    expect((await list(token, short)).status).toBe(200);
  }, 120_000);

  it("another person is served while one has hundreds of requests queued", async () => {
    const [a, b] = [await person(), await person()];
    let aDone = 0;
    const flood = Array.from({ length: 300 }, () =>
      list(a).then(async (r) => {
        await r.arrayBuffer();
        aDone += 1;
        return r.status;
      }),
    );
    // Let the flood reach the server and queue up.
    while (aDone === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const r = await list(b);
    expect(r.status).toBe(200);
    const aDoneWhenBAnswered = aDone;
    const statuses = await Promise.all(flood);
    expect(statuses.every((s) => s === 200)).toBe(true);
    // Served in turn, not after a's queue: nearly all of a's requests were still waiting.
    expect(aDoneWhenBAnswered).toBeLessThan(150);
  }, 120_000);

  it("the live event stream takes no slot: the person's next requests still run", async () => {
    const token = await person();
    const stream = new AbortController();
    const events = await fetch(`${server.url}${LIVE_EVENTS_PATH}`, {
      headers: { authorization: `Bearer ${token}` },
      signal: stream.signal,
    });
    expect(events.status).toBe(200);
    const second = new AbortController();
    const again = await fetch(`${server.url}${LIVE_EVENTS_PATH}`, {
      headers: { authorization: `Bearer ${token}` },
      signal: second.signal,
    });
    expect(again.status).toBe(200);
    // Two streams open and a share of two: were streams counted, these would wait forever.
    const answers = await Promise.all([list(token), list(token), list(token)]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    stream.abort();
    second.abort();
  }, 60_000);
});
