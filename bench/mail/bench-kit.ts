/**
 * What the mail benches share: a fresh database, the emulator with the bench's OAuth clients, its
 * admin API, the browser's sign-in over HTTP, JSON calls with a session, and polling. One copy, so
 * a change to sign-in or to the emulator's options reaches every bench.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { EmailListResponse } from "../../contract/mail.ts";
import { type EmulatorProcess, forkEmulator } from "../../emulator/child-process.ts";
import { TEST_OAUTH_CLIENTS } from "../../server/test/auth-fixture.ts";
import type { BackendKind } from "../../server/test/databases.ts";
import { consentAtEmulator } from "../../server/test/emulator-consent.ts";
import { createThrowawayDatabase } from "../../server/test/postgres.ts";
import type { AppProcess } from "./app-process.ts";

export type BenchProvider = "gmail" | "outlook";

export interface BenchDatabase {
  /** Environment for the app process: DATABASE_URL or DATA_DIR. */
  env: Record<string, string>;
  /** How the bench itself opens it (EXPLAIN after the server stops). */
  config: { kind: "pglite"; dir: string } | { kind: "postgres"; url: string };
  destroy(): Promise<void>;
}

/** A database for one run: a fresh embedded folder, or a throwaway database on the test server. */
export async function freshDatabase(backend: BackendKind): Promise<BenchDatabase> {
  if (backend === "postgres") {
    const db = await createThrowawayDatabase();
    return {
      env: { DATABASE_URL: db.url },
      config: { kind: "postgres", url: db.url },
      destroy: () => db.drop(),
    };
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), "mailwise-bench-data-"));
  return {
    env: { DATA_DIR: dir },
    config: { kind: "pglite", dir: path.join(dir, "pglite") },
    destroy: () => rm(dir, { recursive: true, force: true }),
  };
}

/** The emulator in its own process with the bench's OAuth clients and Gmail push to the app. */
export function benchEmulator(
  appUrl: string,
  pushSecret: string,
  providers: BenchProvider[],
): Promise<EmulatorProcess> {
  const client = (p: BenchProvider) => ({
    provider: p === "gmail" ? ("google" as const) : ("microsoft" as const),
    ...TEST_OAUTH_CLIENTS[p],
    name: "Mailwise Bench",
    redirectUris: [`${appUrl}/auth/callback`],
  });
  return forkEmulator({
    admin: true,
    mail: { seedCorpus: false, gmailPushUrl: `${appUrl}/api/webhooks/gmail?token=${pushSecret}` },
    clients: providers.map(client),
  });
}

/** The emulator's admin API; a failure stops the bench with the emulator's answer. */
export function emulatorAdmin(emulatorUrl: string) {
  return async (method: string, p: string, body: unknown): Promise<unknown> => {
    const r = await fetch(`${emulatorUrl}/_admin/${p}`, {
      method,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (r.status >= 300) throw new Error(`emulator ${p} answered ${r.status}: ${await r.text()}`);
    return r.json() as Promise<unknown>;
  };
}

/** The app's environment for a bench: production settings, the emulator, quotas off, test hooks on. */
export function benchAppEnv(
  appUrl: string,
  emulatorUrl: string,
  pushSecret: string,
  database: Record<string, string>,
) {
  return {
    ...database,
    NODE_ENV: "production",
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "warn",
    PUBLIC_URL: appUrl,
    SECRET_KEY: randomBytes(32).toString("hex"),
    DEMO_MODE: "off",
    PROVIDER_EMULATOR_URL: emulatorUrl,
    GOOGLE_CLIENT_ID: TEST_OAUTH_CLIENTS.gmail.clientId,
    GOOGLE_CLIENT_SECRET: TEST_OAUTH_CLIENTS.gmail.clientSecret,
    MICROSOFT_CLIENT_ID: TEST_OAUTH_CLIENTS.outlook.clientId,
    MICROSOFT_CLIENT_SECRET: TEST_OAUTH_CLIENTS.outlook.clientSecret,
    PUSH_WEBHOOK_SECRET: pushSecret,
    // The emulator's quota is off too: the sync runs as fast as the app can take it.
    GMAIL_UNITS_PER_MINUTE: "100000000",
    // Only for GET /api/_test/ai-pending, to know when the analysis is done; it adds routes, nothing else.
    ENABLE_TEST_HOOKS: "1",
  };
}

/** GET with the session; anything but 200 stops the bench. */
export async function getJson<T>(app: AppProcess, token: string, p: string): Promise<T> {
  const r = await fetch(`${app.url}${p}`, { headers: { authorization: `Bearer ${token}` } });
  if (r.status !== 200) throw new Error(`${p} answered ${r.status}: ${await r.text()}`);
  return (await r.json()) as T;
}

/** The OAuth sign-in a browser makes: our start URL, the provider's pages, our callback. */
export async function signIn(app: AppProcess, provider: BenchProvider, email: string): Promise<string> {
  const start = await fetch(`${app.url}/api/auth/${provider}`);
  const cookie = start.headers
    .getSetCookie()
    .find((c) => c.startsWith("mailwise_oauth_flow="))
    ?.split(";")[0];
  const { authUrl } = (await start.json()) as { authUrl: string };
  const back = await consentAtEmulator(authUrl, email);
  const callback = await fetch(`${app.url}/api/auth/${provider}/callback?${back.searchParams.toString()}`, {
    headers: { accept: "application/json", ...(cookie ? { cookie } : {}) },
  });
  const body = (await callback.json()) as { sessionToken?: string };
  if (callback.status !== 200 || !body.sessionToken) throw new Error(`sign-in failed: ${callback.status}`);
  return body.sessionToken;
}

/** Polls `check` every 250 ms until it answers a value. */
export async function until<T>(
  what: string,
  timeoutMs: number,
  check: () => Promise<T | undefined>,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(250);
  }
}

/** Polls until the AI analysis of `email`'s mail is done (GET /api/_test/ai-pending is 0). */
export function untilAnalysed(
  app: AppProcess,
  token: string,
  email: string,
  timeoutMs: number,
): Promise<true> {
  return until("the analysis", timeoutMs, async () => {
    const p = `/api/_test/ai-pending?email=${encodeURIComponent(email)}`;
    const { pending } = await getJson<{ pending: number }>(app, token, p);
    return pending === 0 ? true : undefined;
  });
}

/** Email ids in inbox order, up to `count`, by paging the inbox as the client does. */
export async function inboxIds(app: AppProcess, token: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  while (ids.length < count) {
    const page: EmailListResponse = await getJson<EmailListResponse>(
      app,
      token,
      `/api/emails?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    );
    ids.push(...page.emails.map((e) => e.id));
    cursor = page.nextCursor;
    if (!cursor) break;
  }
  return ids.slice(0, count);
}
