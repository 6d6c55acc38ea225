import { and, eq } from "drizzle-orm";
import { type EmulatorProcess, forkEmulator } from "../../emulator/child-process.ts";
import { type StartEmulatorOptions, startEmulator } from "../../emulator/server.ts";
import { buildApp } from "../app.ts";
import { loadConfig } from "../config.ts";
import { emails, mailAccounts, syncStates } from "../db/schema.ts";
import { createMailProviderClient } from "../providers/factory.ts";
import type { MailProviderClient } from "../providers/mail-provider.ts";
import { createServices, type Role, type Services } from "../services.ts";
import type { ProviderClientFactory, SyncAccount, SyncLogger } from "../sync/types.ts";
import { TEST_OAUTH_CLIENTS } from "./auth-fixture.ts";
import {
  type BackendKind,
  openTestDatabase,
  type TestDatabase,
  type TestDatabaseOptions,
} from "./databases.ts";
import { consentAtEmulator } from "./emulator-consent.ts";
import { reservePort } from "./free-port.ts";
import { TEST_SECRET_KEY, TEST_VAPID_KEYS } from "./server.ts";

export const PUSH_SECRET = "test-push-secret-0123456789abcdef";

const quiet: SyncLogger = { info() {}, warn() {}, error() {} };

/** Wraps each account's client, e.g. to inject a crash after N pages or to watch concurrency. */
export type ClientWrapper = (client: MailProviderClient, account: SyncAccount) => MailProviderClient;

export interface EmulatorMessage {
  id: string;
  graphId: string;
  labelIds: string[];
  internalDate: number;
  messageId: string | null;
  subject: string;
}

export interface SyncFixture {
  database: TestDatabase;
  emulator: EmulatorProcess;
  /** Waits for the provider write-backs queued by earlier actions (they run after the answer). */
  writesBack(): Promise<void>;
  url: string;
  services: Services;
  env: Record<string, string>;
  /** Replaceable: tests swap in wrappers (faults, crash, concurrency probes). */
  wrap: { current: ClientWrapper | undefined };
  clientFactory: ProviderClientFactory;
  signIn(
    provider: "gmail" | "outlook",
    email: string,
  ): Promise<{ token: string; accountId: string; userId: string }>;
  admin(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; json: unknown; text: string }>;
  mailbox(email: string): Promise<EmulatorMessage[]>;
  rows(accountId: string): Promise<Array<typeof emails.$inferSelect>>;
  state(accountId: string): Promise<typeof syncStates.$inferSelect | undefined>;
  /** A second set of services on another connection to the same database (another worker). */
  extraServices(role: Role, wrap?: ClientWrapper): Promise<{ services: Services; close(): Promise<void> }>;
  close(): Promise<void>;
}

export async function waitUntil<T>(
  check: () => Promise<T | undefined | false>,
  timeoutMs = 20_000,
  what = "condition",
): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The app (role all: web + worker) on a fresh database, and the emulator with empty demo
 * mailboxes (tests generate small ones) that pushes Gmail changes to our webhook.
 */
export async function startSyncFixture(
  kind: BackendKind,
  extraEnv: Record<string, string> = {},
  opts: {
    /** Keep the engine's production lease wait, backfill budget and job polling (tests shorten them). */
    engineDefaults?: boolean;
    /** Analyse synced mail in the background as production does (default); off to time sync alone. */
    analyseAfterSync?: boolean;
    /** Run the emulator in its own process, as the real providers are (benchmarks). */
    emulatorProcess?: boolean;
    /** The in-process app's role (default all); "web" when other processes do the work. */
    role?: Role;
    /** Where the database lives and logs (a small disk to fill, say). */
    database?: TestDatabaseOptions;
    /** The services' log (default: nothing is logged). */
    log?: typeof quiet;
    /** How often the due-action sweep polls (default: the services' own). */
    dueActionPollMs?: number;
  } = {},
): Promise<SyncFixture> {
  const database = await openTestDatabase(kind, opts.database);
  const reservation = await reservePort();
  const port = reservation.port;
  const appUrl = `http://127.0.0.1:${port}`;
  const emulatorOptions: StartEmulatorOptions = {
    admin: true,
    mail: {
      seedCorpus: false,
      gmailPushUrl: `${appUrl}/api/webhooks/gmail?token=${PUSH_SECRET}`,
      pushRetryDelayMs: 200,
      graphValidationTimeoutMs: 5_000,
    },
    clients: [
      {
        provider: "google",
        ...TEST_OAUTH_CLIENTS.gmail,
        name: "Mailwise Test",
        redirectUris: [`${appUrl}/auth/callback`],
      },
      {
        provider: "microsoft",
        ...TEST_OAUTH_CLIENTS.outlook,
        name: "Mailwise Test",
        redirectUris: [`${appUrl}/auth/callback`],
      },
    ],
  };
  const emulator = opts.emulatorProcess
    ? await forkEmulator(emulatorOptions)
    : await startEmulator(emulatorOptions);
  const env: Record<string, string> = {
    NODE_ENV: "test",
    // TEST_LOG_LEVEL=error shows the test servers' errors (a 500 in a test names its cause).
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent",
    PORT: String(port),
    PUBLIC_URL: appUrl,
    SECRET_KEY: TEST_SECRET_KEY,
    ...TEST_VAPID_KEYS,
    DEMO_MODE: "off",
    PROVIDER_EMULATOR_URL: emulator.url,
    GOOGLE_CLIENT_ID: TEST_OAUTH_CLIENTS.gmail.clientId,
    GOOGLE_CLIENT_SECRET: TEST_OAUTH_CLIENTS.gmail.clientSecret,
    MICROSOFT_CLIENT_ID: TEST_OAUTH_CLIENTS.outlook.clientId,
    MICROSOFT_CLIENT_SECRET: TEST_OAUTH_CLIENTS.outlook.clientSecret,
    AUTH_RATE_LIMIT_PER_MINUTE: "100000",
    PUSH_WEBHOOK_SECRET: PUSH_SECRET,
    // The poller stays out of the way unless a test asks for it.
    SYNC_POLL_SECONDS: "3600",
    ...extraEnv,
  };
  const config = loadConfig(env);
  const wrap: { current: ClientWrapper | undefined } = { current: undefined };

  const makeServices = async (
    db: TestDatabase["database"],
    role: Role,
    wrapper?: () => ClientWrapper | undefined,
  ) => {
    let services: Services | undefined;
    const clientFor: ProviderClientFactory = (account) => {
      if (!services) throw new Error("services not ready");
      const client = createMailProviderClient({
        account,
        config,
        accountTokens: services.auth.accountTokens,
        tuning: { timeoutMs: 5_000, retry: { baseDelayMs: 20, maxDelayMs: 200, maxInlineWaitMs: 3_000 } },
      });
      const w = wrapper?.();
      return w ? w(client, account) : client;
    };
    services = await createServices({
      config,
      database: db,
      role,
      log: opts.log ?? quiet,
      clientFor,
      ...(opts.engineDefaults ? {} : { jobPollingSeconds: 0.5, leaseWaitMs: 2_000, backfillBudgetMs: 500 }),
      ...(opts.analyseAfterSync === false ? { analyseAfterSync: false } : {}),
      ...(opts.dueActionPollMs === undefined ? {} : { dueActionPollMs: opts.dueActionPollMs }),
    });
    return { services, clientFor };
  };

  const { services, clientFor } = await makeServices(
    database.database,
    opts.role ?? "all",
    () => wrap.current,
  );
  const app = await buildApp({ config, database: database.database, services });
  await services.start();
  await reservation.release();
  await app.listen({ host: "127.0.0.1", port });

  const admin: SyncFixture["admin"] = async (method, path, body) => {
    const response = await fetch(`${emulator.url}/_admin/${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, json, text };
  };

  const extras: Array<() => Promise<void>> = [];

  const fixture: SyncFixture = {
    database,
    emulator,
    url: appUrl,
    services,
    env,
    wrap,
    clientFactory: clientFor,
    writesBack: () => app.mail.idle(),
    async signIn(provider, email) {
      const start = await fetch(`${appUrl}/api/auth/${provider}`);
      const cookie = start.headers
        .getSetCookie()
        .find((c) => c.startsWith("mailwise_oauth_flow="))
        ?.split(";")[0];
      const { authUrl } = (await start.json()) as { authUrl: string };
      const back = await consentAtEmulator(authUrl, email);
      const callback = await fetch(
        `${appUrl}/api/auth/${provider}/callback?${back.searchParams.toString()}`,
        {
          headers: { accept: "application/json", ...(cookie ? { cookie } : {}) },
        },
      );
      const body = (await callback.json()) as { sessionToken?: string };
      if (callback.status !== 200 || !body.sessionToken)
        throw new Error(`sign-in failed: ${callback.status}`);
      const [account] = await database.database.db
        .select({ id: mailAccounts.id, userId: mailAccounts.userId })
        .from(mailAccounts)
        .where(and(eq(mailAccounts.provider, provider), eq(mailAccounts.email, email)));
      if (!account) throw new Error("no account row after sign-in");
      return { token: body.sessionToken, accountId: account.id, userId: account.userId };
    },
    admin,
    async mailbox(email) {
      const answer = await admin("GET", `mailboxes/${encodeURIComponent(email)}?limit=1000`);
      return (answer.json as { messages: EmulatorMessage[] }).messages;
    },
    rows: (accountId) => database.database.db.select().from(emails).where(eq(emails.accountId, accountId)),
    async state(accountId) {
      const [row] = await database.database.db
        .select()
        .from(syncStates)
        .where(eq(syncStates.accountId, accountId));
      return row;
    },
    async extraServices(role, wrapper) {
      const { openDatabase } = await import("../db/client.ts");
      const db = await openDatabase({ database: database.config });
      const made = await makeServices(db, role, () => wrapper);
      await made.services.start();
      const close = async () => {
        await made.services.stop();
        await db.close();
      };
      extras.push(close);
      return { services: made.services, close };
    },
    async close() {
      await app.close();
      await services.stop();
      for (const close of extras) await close().catch(() => undefined);
      await emulator.close();
      await database.destroy();
    },
  };
  return fixture;
}

/**
 * What the DB must hold for a mailbox: inbox mail plus anything received within the window,
 * except trash/spam/drafts (the adapters' listing scope). Gmail keys by id, Outlook by graphId.
 */
export function expectedIds(
  messages: readonly EmulatorMessage[],
  provider: "gmail" | "outlook",
  depthDays: number,
  now = Date.now(),
): Set<string> {
  const since = now - depthDays * 86_400_000;
  const out = new Set<string>();
  for (const m of messages) {
    const labels = new Set(m.labelIds);
    if (labels.has("TRASH") || labels.has("SPAM") || labels.has("DRAFT")) continue;
    if (labels.has("INBOX") || m.internalDate >= since) out.add(provider === "gmail" ? m.id : m.graphId);
  }
  return out;
}
