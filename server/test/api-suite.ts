import { afterAll, beforeAll } from "vitest";
import type { Db } from "../db/client.ts";
import type { Role } from "../services.ts";
import { type BackendKind, openTestDatabase, type TestDatabase } from "./databases.ts";
import { startTestServer, type TestServer } from "./server.ts";

/** An API answer: the status and the JSON body ({} when the body is empty). */
export interface ApiAnswer {
  status: number;
  json: Record<string, unknown>;
}

export interface ApiSuite {
  /** The suite's database, server and db handle: open from beforeAll on, so read them inside tests. */
  readonly database: TestDatabase;
  readonly server: TestServer;
  readonly db: Db;
  /** Sends a request as the token's session, with `body` as JSON when one is given. */
  api(method: string, path: string, token: string, body?: unknown): Promise<ApiAnswer>;
}

/**
 * Factory accounts hold fake tokens, so providers point at a closed port: a provider call fails
 * at once instead of leaving the machine.
 */
const OFFLINE_PROVIDERS = { DEMO_MODE: "off", PROVIDER_EMULATOR_URL: "http://127.0.0.1:9" };

/**
 * A fresh database of `kind` and a real server over it for the enclosing describe block: opened in
 * beforeAll, closed in afterAll. Call it once at the top of the block.
 */
export function apiSuite(kind: BackendKind, options: { role?: Role } = {}): ApiSuite {
  let opened: { database: TestDatabase; server: TestServer; db: Db } | undefined;
  let database: TestDatabase | undefined;
  let server: TestServer | undefined;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    server = await startTestServer(database.database, OFFLINE_PROVIDERS, options);
    opened = { database, server, db: database.database.db };
  });
  afterAll(async () => {
    await server?.close();
    await database?.destroy();
  });

  const open = () => {
    if (!opened) throw new Error("the API suite is not open yet: use it inside a test or a hook");
    return opened;
  };
  return {
    get database() {
      return open().database;
    },
    get server() {
      return open().server;
    },
    get db() {
      return open().db;
    },
    async api(method, path, token, body) {
      const r = await fetch(`${open().server.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await r.text();
      return { status: r.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
    },
  };
}
