import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "../test/databases.ts";
import { signedInUser } from "../test/factories.ts";
import { startTestServer, type TestServer } from "../test/server.ts";
import { MAX_JSON_DEPTH } from "./input-guard.ts";

/** Issue 34.2: deeply nested JSON is a 400 on every JSON route, never a 500 from a blown stack. */
describe("deeply nested JSON bodies", () => {
  let database: TestDatabase;
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    database = await openTestDatabase("pglite");
    server = await startTestServer(database.database, {
      DEMO_MODE: "off",
      PROVIDER_EMULATOR_URL: "http://127.0.0.1:9",
    });
    token = (await signedInUser(database.database.db)).token;
  });
  afterAll(async () => {
    await server?.close();
    await database?.destroy();
  });

  async function post(path: string, body: string, auth: boolean) {
    const r = await fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(auth ? { authorization: `Bearer ${token}` } : {}) },
      body,
    });
    return { status: r.status, json: (await r.json()) as { error?: { code: string; message: string } } };
  }
  const arrays = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
  const objects = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

  // The sign-in claim needs no session; the agent settings do.
  const routes: Array<[string, boolean]> = [
    ["/api/auth/claim", false],
    ["/api/agent", true],
  ];

  it.each(routes)(
    "%s answers 400 json_too_deep for 10,000 levels of arrays and of objects",
    async (path, auth) => {
      for (const body of [arrays(10_000), objects(10_000), `{"name":"x","p":${arrays(10_000)}}`]) {
        const r = await post(path, body, auth);
        expect(r.status, body.slice(0, 20)).toBe(400);
        expect(r.json.error).toEqual({
          code: "json_too_deep",
          message: `JSON nested deeper than ${MAX_JSON_DEPTH} levels`,
        });
      }
    },
  );

  it("a body of a million levels stops at the body size limit, or at the depth cap below it", async () => {
    // 2 MB: over the 1 MB body limit.
    expect((await post("/api/auth/claim", arrays(1_000_000), false)).status).toBe(413);
    // 1 MB minus a little: parsed, then refused for its depth.
    const r = await post("/api/auth/claim", objects(100_000), false);
    expect(r.status).toBe(400);
    expect(r.json.error?.code).toBe("json_too_deep");
  });

  it("nesting up to the cap is still read as usual", async () => {
    // The claim's own validation answers: the depth was accepted.
    const r = await post(
      "/api/auth/claim",
      `{"sessionToken":"x","deep":${arrays(MAX_JSON_DEPTH - 1)}}`,
      false,
    );
    expect(r.status).toBe(400);
    expect(r.json.error?.code).not.toBe("json_too_deep");
    const over = await post(
      "/api/auth/claim",
      `{"sessionToken":"x","deep":${arrays(MAX_JSON_DEPTH)}}`,
      false,
    );
    expect(over.json.error?.code).toBe("json_too_deep");
  });

  it("a NUL deep inside the cap is still found without recursion", async () => {
    const body = `${"[".repeat(50)}"a\\u0000"${"]".repeat(50)}`;
    const r = await post("/api/agent", body, true);
    expect(r.status).toBe(400);
    expect(r.json.error?.code).toBe("validation_failed");
  });
});
