import { type MailProvider, type SessionUser, sessionResponseSchema } from "../../contract/auth.ts";
import { type RunningEmulator, startEmulator } from "../../emulator/server.ts";
import { createSessionService } from "../auth/sessions.ts";
import { createClock } from "../lib/clock.ts";
import type { Role } from "../services.ts";
import { type BackendKind, openTestDatabase, type TestDatabase } from "./databases.ts";
import { consentAtEmulator } from "./emulator-consent.ts";
import { createUser } from "./factories.ts";
import { reservePort } from "./free-port.ts";
import { startTestServer, type TestServer } from "./server.ts";

export const TEST_OAUTH_CLIENTS = {
  gmail: { clientId: "mailwise-test-google", clientSecret: "mailwise-test-google-secret" },
  outlook: { clientId: "mailwise-test-microsoft", clientSecret: "mailwise-test-microsoft-secret" },
} as const;

/** People seeded in the emulator, named here so tests read as stories. */
export const PEOPLE = {
  alex: "alex.morgan@gmail.com",
  priya: "priya.shah@gmail.com",
  sam: "sam.taylor@gmail.com",
  jordan: "jordan.lee@outlook.com",
  casey: "casey.kim@outlook.com",
} as const;

export interface ApiResult {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body, or undefined for non-JSON answers. */
  json: Record<string, unknown> | undefined;
}

export interface StartedFlow {
  authUrl: string;
  state: string;
  /** The Cookie header value carrying the browser-flow cookie. */
  cookie: string;
}

export interface AuthFixture {
  database: TestDatabase;
  emulator: RunningEmulator;
  server: TestServer;
  /** Every raw response body the fixture saw, so tests can scan them for leaked secrets. */
  transcript: string[];
  api(
    method: string,
    path: string,
    options?: { token?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<ApiResult>;
  /** GET /api/auth/{provider}, keeping the flow cookie like a browser would. */
  start(provider: MailProvider, options?: { token?: string; flow?: "redirect" }): Promise<StartedFlow>;
  /** Clicks through the emulator and returns the redirect back to the app. */
  consent(flow: StartedFlow, email: string, decision?: "allow" | "cancel"): Promise<URL>;
  /** Calls our callback with the provider's redirect parameters. */
  callback(
    provider: MailProvider,
    params: URLSearchParams,
    options?: { cookie?: string; navigation?: boolean },
  ): Promise<ApiResult>;
  /** The whole page-exchange sign-in; returns the session token. */
  signIn(provider: MailProvider, email: string, options?: { token?: string }): Promise<string>;
  /** GET /api/auth/session, failing unless it answers 200 with a contract-shaped user. */
  sessionUser(token: string): Promise<SessionUser>;
  /**
   * Waits until the provider write-backs queued by earlier actions have ended (confirmed, refused
   * and rolled back, or pending): actions answer before the provider does (decision 0086).
   */
  writesBack(): Promise<void>;
  /** POST to the emulator's /_admin API. */
  emulatorAdmin(path: string, body: unknown): Promise<ApiResult>;
  /**
   * Moves the server clock forward (POST /api/_test/clock, which wants a session: the fixture
   * uses one of its own, so no test's session is renewed by it).
   */
  moveClock(seconds: number): Promise<ApiResult>;
  close(): Promise<void>;
}

async function read(response: Response): Promise<ApiResult> {
  const text = await response.text();
  let json: Record<string, unknown> | undefined;
  if (response.headers.get("content-type")?.includes("application/json")) {
    json = JSON.parse(text) as Record<string, unknown>;
  }
  return { status: response.status, headers: response.headers, text, json };
}

function flowCookieFrom(response: Response): string {
  const setCookie = response.headers.getSetCookie().find((c) => c.startsWith("mailwise_oauth_flow="));
  if (!setCookie) throw new Error("GET /api/auth/{provider} set no flow cookie");
  return setCookie.split(";")[0] ?? "";
}

/**
 * The emulator (admin on, our test clients registered with this server's redirect URIs) plus the
 * app on a fresh database, wired together the way demo mode wires them. The server's port is
 * picked first because the emulator must know the redirect URIs when it starts.
 */
export async function startAuthFixture(
  kind: BackendKind,
  env: Record<string, string> = {},
  emulatorOptions: { accessTokenTtlSeconds?: number; seedCorpus?: boolean } = {},
  serverOptions: { role?: Role } = {},
): Promise<AuthFixture> {
  const database = await openTestDatabase(kind);
  const reservation = await reservePort();
  const appUrl = `http://127.0.0.1:${reservation.port}`;
  const { seedCorpus, ...oauthOptions } = emulatorOptions;
  const emulator = await startEmulator({
    admin: true,
    ...oauthOptions,
    ...(seedCorpus === false ? { mail: { seedCorpus: false } } : {}),
    clients: [
      {
        provider: "google",
        ...TEST_OAUTH_CLIENTS.gmail,
        name: "Mailwise Test",
        redirectUris: [
          `${appUrl}/auth/callback`,
          `${appUrl}/api/auth/gmail/callback`,
          `${appUrl}/api/auth/google/calendar/callback`,
        ],
      },
      {
        provider: "microsoft",
        ...TEST_OAUTH_CLIENTS.outlook,
        name: "Mailwise Test",
        redirectUris: [
          `${appUrl}/auth/callback`,
          `${appUrl}/api/auth/outlook/callback`,
          `${appUrl}/api/auth/outlook/calendar/callback`,
        ],
      },
    ],
  });
  const server = await startTestServer(
    database.database,
    {
      DEMO_MODE: "off",
      PROVIDER_EMULATOR_URL: emulator.url,
      GOOGLE_CLIENT_ID: TEST_OAUTH_CLIENTS.gmail.clientId,
      GOOGLE_CLIENT_SECRET: TEST_OAUTH_CLIENTS.gmail.clientSecret,
      MICROSOFT_CLIENT_ID: TEST_OAUTH_CLIENTS.outlook.clientId,
      MICROSOFT_CLIENT_SECRET: TEST_OAUTH_CLIENTS.outlook.clientSecret,
      ENABLE_TEST_HOOKS: "1",
      // Tests sign in dozens of times from one IP; the rate-limit test starts its own server.
      AUTH_RATE_LIMIT_PER_MINUTE: "100000",
      ...env,
    },
    { port: reservation, ...serverOptions },
  );

  const transcript: string[] = [];
  const record = async (response: Response) => {
    const result = await read(response);
    transcript.push(result.text, JSON.stringify([...response.headers]));
    return result;
  };

  let operator: string | undefined;
  let operatorUser: string | undefined;
  let operatorAt = 0;
  /** Seconds this fixture moved the server clock. */
  let moved = 0;

  const fixture: AuthFixture = {
    database,
    emulator,
    server,
    transcript,
    async api(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
      if (options.body !== undefined) headers["content-type"] = "application/json";
      return record(
        await fetch(`${server.url}${path}`, {
          method,
          headers,
          body: options.body === undefined ? undefined : JSON.stringify(options.body),
          redirect: "manual",
        }),
      );
    },
    async start(provider, options = {}) {
      const query = options.flow ? `?flow=${options.flow}` : "";
      const response = await fetch(`${server.url}/api/auth/${provider}${query}`, {
        headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
      });
      const cookie = flowCookieFrom(response);
      const result = await record(response);
      if (result.status !== 200)
        throw new Error(`start ${provider} answered ${result.status}: ${result.text}`);
      const authUrl = String(result.json?.authUrl);
      const state = new URL(authUrl).searchParams.get("state") ?? "";
      return { authUrl, state, cookie };
    },
    consent(flow, email, decision = "allow") {
      return consentAtEmulator(flow.authUrl, email, decision);
    },
    async callback(provider, params, options = {}) {
      const headers: Record<string, string> = {
        accept: options.navigation ? "text/html,application/xhtml+xml" : "application/json",
      };
      if (options.cookie) headers.cookie = options.cookie;
      return record(
        await fetch(`${server.url}/api/auth/${provider}/callback?${params.toString()}`, {
          headers,
          redirect: "manual",
        }),
      );
    },
    async signIn(provider, email, options = {}) {
      const flow = await fixture.start(provider, options);
      const back = await fixture.consent(flow, email);
      const result = await fixture.callback(provider, back.searchParams, { cookie: flow.cookie });
      const token = result.json?.sessionToken;
      if (result.status !== 200 || typeof token !== "string") {
        throw new Error(`callback answered ${result.status}: ${result.text}`);
      }
      return token;
    },
    async sessionUser(token) {
      const result = await fixture.api("GET", "/api/auth/session", { token });
      if (result.status !== 200) throw new Error(`session answered ${result.status}: ${result.text}`);
      return sessionResponseSchema.parse(result.json).user;
    },
    async emulatorAdmin(path, body) {
      return read(
        await fetch(`${emulator.url}/_admin/${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
      );
    },
    writesBack: () => server.app.mail.idle(),
    async moveClock(seconds) {
      // A bare user of the fixture's own (no account, no mail), its session issued on the server's
      // clock as far as this fixture moved it, so it is live however far the clock went.
      if (!operator || operatorAt !== moved) {
        operatorUser ??= (await createUser(database.database.db)).id;
        const at = moved;
        operator = await createSessionService(
          database.database.db,
          createClock(() => Date.now() + at * 1000),
        ).create(operatorUser);
        operatorAt = moved;
      }
      const answer = await fixture.api("POST", "/api/_test/clock", {
        token: operator,
        body: { advanceSeconds: seconds },
      });
      if (answer.status === 200) moved += seconds;
      return answer;
    },
    async close() {
      await server.close();
      await emulator.close();
      await database.destroy();
    },
  };
  return fixture;
}
