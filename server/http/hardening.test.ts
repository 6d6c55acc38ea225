import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiErrorSchema } from "../../contract/errors.ts";
import { BACKENDS, openTestDatabase, type TestDatabase } from "../test/databases.ts";
import { createEmail, signedInUser } from "../test/factories.ts";
import { startTestServer, type TestServer } from "../test/server.ts";

/** Issue 13.5: crafted input is a 4xx in the API's shape, and mail never sits in a cache. */
describe.each(BACKENDS)("hardened HTTP edges on %s", (kind) => {
  let database: TestDatabase;
  let server: TestServer;
  let token: string;
  let emailId: string;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    server = await startTestServer(database.database, {
      DEMO_MODE: "off",
      PROVIDER_EMULATOR_URL: "http://127.0.0.1:9",
      ENABLE_TEST_HOOKS: "1",
    });
    const signed = await signedInUser(database.database.db);
    token = signed.token;
    emailId = (await createEmail(database.database.db, signed.account, { subject: "Quarterly numbers" })).id;
  });
  afterAll(async () => {
    await server?.close();
    await database?.destroy();
  });

  async function call(
    method: string,
    path: string,
    init: { body?: string; headers?: Record<string, string> } = {},
  ) {
    const r = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...init.headers },
      body: init.body,
    });
    const text = await r.text();
    return {
      status: r.status,
      headers: r.headers,
      text,
      json: text ? (JSON.parse(text) as unknown) : undefined,
    };
  }
  const json = (value: unknown) => ({
    body: JSON.stringify(value),
    headers: { "content-type": "application/json" },
  });
  const cursorOf = (raw: string) => Buffer.from(raw, "utf8").toString("base64url");

  it("a cursor whose time is out of range is 400, not 500", async () => {
    for (const time of ["9007199254740991", "-8640000000000000", "8640000000000000", "253402300800000"]) {
      const r = await call("GET", `/api/emails?cursor=${cursorOf(`${time}|${emailId}`)}`);
      expect(r.status, time).toBe(400);
      expect(r.json).toEqual({
        error: { code: "validation_failed", message: "Invalid cursor", fields: { cursor: "Invalid cursor" } },
      });
    }
    // The edges of the range still page.
    expect((await call("GET", `/api/emails?cursor=${cursorOf(`253402300799999|${emailId}`)}`)).status).toBe(
      200,
    );
  });

  it("a NUL character anywhere in the input is 400 naming the field, never a database error", async () => {
    const cases: Array<[string, string, { body?: string; headers?: Record<string, string> }, string]> = [
      ["GET", "/api/emails?q=%00", {}, "q"],
      ["GET", "/api/emails?q=from:a%00b", {}, "q"],
      ["POST", "/api/agent", json({ name: "Ag\u0000ent", personality: "kind" }), "name"],
      [
        "POST",
        "/api/agent",
        json({ name: "Agent", preferences: { forbidden_phrases: ["ok", "x\u0000"] } }),
        "preferences.forbidden_phrases.1",
      ],
      ["PATCH", `/api/emails/${emailId}`, json({ isRead: true, "a\u0000": 1 }), "a\u0000"],
      ["GET", "/api/emails/%00", {}, "id"],
    ];
    for (const [method, path, init, field] of cases) {
      const r = await call(method, path, init);
      expect(r.status, path).toBe(400);
      const body = apiErrorSchema.parse(r.json);
      expect(body.error.code).toBe("validation_failed");
      expect(body.error.fields).toEqual({ [field]: "must not contain a NUL character" });
    }
  });

  it("router refusals keep the error shape: 414 for an over-long parameter, 400 for a bad escape", async () => {
    const long = await call("GET", `/api/emails/${"a".repeat(300)}`);
    expect(long.status).toBe(414);
    expect(long.json).toEqual({ error: { code: "uri_too_long", message: "The address is too long." } });
    const bad = await call("GET", "/api/emails/%E0%A4%A");
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ error: { code: "bad_request", message: "The address is not valid." } });
    const parse = await call("POST", "/api/emails/auto-sync", {
      body: "{",
      headers: { "content-type": "application/json" },
    });
    expect(parse.status).toBe(400);
    expect(apiErrorSchema.parse(parse.json).error.code).toBe("bad_request");
  });

  it("headers Node refuses are answered in the error shape too (431)", async () => {
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const url = new URL(`${server.url}/api/emails`);
      const req = httpRequest(
        { host: url.hostname, port: url.port, path: url.pathname, headers: { "x-big": "a".repeat(40_000) } },
        (res) => {
          let body = "";
          res.on("data", (chunk: Buffer) => {
            body += chunk.toString();
          });
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on("error", reject);
      req.end();
    });
    expect(answer.status).toBe(431);
    expect(JSON.parse(answer.body)).toEqual({
      error: { code: "headers_too_large", message: "The request headers are too large." },
    });
  });

  it("an empty JSON body is no payload", async () => {
    const empty = { body: "", headers: { "content-type": "application/json" } };
    expect((await call("POST", "/api/emails/auto-sync", empty)).status).toBe(202);
    expect((await call("POST", `/api/agent/analyze/${emailId}`, empty)).status).toBe(200);
    const other = await signedInUser(database.database.db);
    const out = await fetch(`${server.url}/api/auth/logout`, {
      method: "POST",
      headers: { authorization: `Bearer ${other.token}`, "content-type": "application/json" },
      body: "",
    });
    expect(out.status).toBe(200);
    // Prototype poisoning is still refused.
    const poisoned = await call("POST", "/api/emails/auto-sync", {
      body: '{"__proto__":{"admin":true}}',
      headers: { "content-type": "application/json" },
    });
    expect(poisoned.status).toBe(400);
  });

  it("answers that carry mail say Cache-Control: no-store", async () => {
    const answers = [
      await call("GET", "/api/emails"),
      await call("GET", `/api/emails/${emailId}`),
      await call("GET", "/api/emails?q=quarterly"),
      await call("POST", `/api/agent/analyze/${emailId}`),
      await call("POST", "/api/ai/improve-text", json({ text: "i think so" })),
      await call("GET", "/api/emails/action-items"),
      await call("GET", `/api/emails/${crypto.randomUUID()}`),
    ];
    for (const a of answers) expect(a.headers.get("cache-control")).toBe("no-store");
    expect(answers[0]?.status).toBe(200);
  });

  it("test hooks answer only a signed-in caller", async () => {
    const anonymous = await fetch(`${server.url}/api/_test/clock`, {
      method: "POST",
      ...json({ advanceSeconds: 0 }),
    });
    expect(anonymous.status).toBe(401);
    expect(apiErrorSchema.parse(await anonymous.json()).error.code).toBe("unauthorized");
    expect((await fetch(`${server.url}/api/_test/ai-pending?email=x`)).status).toBe(401);
    expect((await call("POST", "/api/_test/clock", json({ advanceSeconds: 0 }))).status).toBe(200);
    expect((await call("GET", "/api/_test/ai-pending?email=x")).status).toBe(200);
  });
});
