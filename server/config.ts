import path from "node:path";
import { z } from "zod";

/** Every environment variable the server reads, validated once at start. Documented in .env.example. */
const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  HOST: z.string().min(1).default("127.0.0.1"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
    .optional(),
  /** How long start-up keeps trying to open the database (PostgreSQL may still be starting); 0: once. */
  DATABASE_START_TIMEOUT_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  /** How often the embedded database (PGlite, which has no autovacuum) is vacuumed. */
  DB_VACUUM_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(604_800).default(3_600),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  WEB_DIST_DIR: z.string().min(1).default("./dist/web"),
  /** 32+ bytes, base64 or hex. Unset: a key is generated once into DATA_DIR with owner-only permissions. */
  SECRET_KEY: z.string().min(32, "must be at least 32 characters").optional(),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  MICROSOFT_CLIENT_ID: z.string().optional(),
  MICROSOFT_CLIENT_SECRET: z.string().optional(),
  MICROSOFT_TENANT: z.string().min(1).default("common"),
  /** Points every provider base URL at the emulator: https://HOST becomes {PROVIDER_EMULATOR_URL}/HOST. */
  PROVIDER_EMULATOR_URL: z.url().optional(),
  GOOGLE_ACCOUNTS_URL: z.url().optional(),
  GOOGLE_OAUTH2_URL: z.url().optional(),
  GOOGLE_OPENID_URL: z.url().optional(),
  GOOGLE_APIS_URL: z.url().optional(),
  GMAIL_API_URL: z.url().optional(),
  MICROSOFT_LOGIN_URL: z.url().optional(),
  GRAPH_URL: z.url().optional(),
  /** auto: run the emulator with demo accounts when no real client credentials are configured. */
  DEMO_MODE: z.enum(["auto", "on", "off"]).default("auto"),
  EMULATOR_PORT: z.coerce.number().int().min(0).max(65535).default(4010),
  /** Cloud Pub/Sub topic Gmail pushes mailbox changes to (users.watch). */
  GMAIL_PUSH_TOPIC: z.string().min(1).default("projects/mailwise/topics/gmail"),
  /** Gmail's per-user quota; our limiter spends at most this many units a minute per mailbox. */
  GMAIL_UNITS_PER_MINUTE: z.coerce.number().int().min(1).default(15_000),
  /**
   * How long a click's write-back (archive, read, star, flag, delete) may wait for the provider.
   * Past it the outcome is unknown: the email shows pending and is settled from the provider.
   */
  PROVIDER_WRITE_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
  ATTACHMENT_OPEN_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  /** Sign-in attempts per IP per minute on the auth endpoints. */
  /**
   * Hops of reverse proxies whose X-Forwarded-For we believe (0 = none). Trusting it without a
   * proxy would let anyone pick their own IP and dodge per-IP rate limits.
   */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  /** Per-person fairness of the API (server/http/fairness-gate.ts, decision 0079). */
  API_USER_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(48),
  API_USER_SHARE: z.coerce.number().int().min(1).max(1000).default(1),
  API_USER_QUEUE: z.coerce.number().int().min(0).max(100_000).default(200),
  /** Initial sync depth: the whole inbox plus everything received in the last N days. */
  SYNC_DEPTH_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  /** Polling fallback: sync accounts whose last sync is older than this (pushes can be lost). */
  SYNC_POLL_SECONDS: z.coerce.number().int().min(5).default(60),
  /**
   * How long an account's sync lease lasts without renewal: a worker that dies holding it delays
   * the account by about this long. Sync job expiry and the takeover check follow it; tests set 5.
   */
  SYNC_LEASE_SECONDS: z.coerce.number().int().min(2).max(3600).default(60),
  /**
   * How often worker roles look for due scheduled deletions and people whose daily retention
   * run is due (the privacy sweep job). Tests set 1.
   */
  PRIVACY_SWEEP_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  /**
   * How long a worker's claim on a due action (a held mail being sent) lasts. Past it, another
   * worker takes the action over (its worker died) after asking the provider whether the mail
   * already went out. Longer than a provider send can take. Tests of a killed worker set a few.
   */
  DUE_ACTION_LEASE_SECONDS: z.coerce.number().int().min(1).max(3_600).default(120),
  /** Due actions a worker claims at once and runs side by side (decision 0073; bench/jobs/due-lateness.ts). */
  DUE_ACTION_BATCH_SIZE: z.coerce.number().int().min(1).max(500).default(50),
  /** Secret in the Gmail push URL (?token=). Unset: derived from the secret key. */
  PUSH_WEBHOOK_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
  /**
   * host:port pairs the unsubscribe one-click POST may reach despite the SSRF guard, comma
   * separated. Only tests set it (their unsubscribe target is a local server); empty by default.
   */
  UNSUBSCRIBE_ALLOW_HOSTS: z.string().default(""),
  /**
   * Web Push (decision 0075): the VAPID key pair, base64url (web-push's generateVAPIDKeys). Unset:
   * a pair is generated once into DATA_DIR/vapid.json, like the secret key. Set both or neither.
   */
  VAPID_PUBLIC_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{87}$/, "must be a base64url P-256 public key")
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, "must be a base64url P-256 private key")
    .optional(),
  /** Who push services contact about our pushes: an https: URL or a mailto: address. */
  VAPID_SUBJECT: z
    .string()
    .regex(/^(https:\/\/|mailto:)\S+$/, "must be an https: URL or a mailto: address")
    .optional(),
  /**
   * host:port pairs a push endpoint may name despite the SSRF guard, comma separated. Demo mode and
   * PROVIDER_EMULATOR_URL add the emulator's push service; real push services need none.
   */
  PUSH_ALLOW_HOSTS: z.string().default(""),
  /** Which engine answers AI requests; local needs no model and no network. */
  AI_PROVIDER: z.enum(["local", "openai", "anthropic", "openai-compatible"]).default("local"),
  /** Base URL of the model API (required for openai-compatible: Ollama, vLLM, LM Studio, OpenRouter). */
  AI_BASE_URL: z.url().optional(),
  AI_API_KEY: z.string().min(1).optional(),
  /** Small, cheap model for per-email analysis. */
  AI_MODEL_ANALYSIS: z.string().min(1).optional(),
  /** Stronger model for drafting replies and improving text. */
  AI_MODEL_DRAFTING: z.string().min(1).optional(),
  AI_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(20_000),
  /** Model calls one user may have in flight; more interactive requests get 429. */
  AI_MAX_CONCURRENCY_PER_USER: z.coerce.number().int().min(1).max(100).default(4),
  /**
   * Per-user budget of model calls (not the local engine, which costs nothing), counted in the
   * database across processes; 0 = no limit. Over it, requests get 429 ai_budget_exceeded.
   */
  AI_CALLS_PER_MINUTE: z.coerce.number().int().min(0).default(30),
  AI_CALLS_PER_DAY: z.coerce.number().int().min(0).default(1500),
  /** 1 registers test-only routes (POST /api/_test/clock). Never set in production. */
  ENABLE_TEST_HOOKS: z.enum(["0", "1"]).default("0"),
  /** Leaderboard: people who joined before this instant are founding members (+1000 points). */
  FOUNDING_MEMBER_UNTIL: z.iso.datetime({ offset: true }).default("2027-01-01T00:00:00Z"),
  /** Leaderboard: people who joined before this instant (and are not founding members) are early adopters (+500). */
  EARLY_ADOPTER_UNTIL: z.iso.datetime({ offset: true }).default("2027-07-01T00:00:00Z"),
});

export type Env = z.infer<typeof envSchema>;

export interface Config {
  env: Env["NODE_ENV"];
  host: string;
  port: number;
  /** Where browsers reach the app; OAuth redirect URIs are built from it. */
  publicUrl: string;
  dataDir: string;
  database: { kind: "pglite"; dir: string } | { kind: "postgres"; url: string };
  databaseStartTimeoutMs: number;
  vacuumIntervalMs: number;
  logLevel: Env["LOG_LEVEL"];
  webDistDir: string;
  secretKey: string | undefined;
  /** Real endpoints by default; the emulator's when PROVIDER_EMULATOR_URL is set. */
  providers: ProviderEndpoints;
  google: OAuthClientCredentials | undefined;
  microsoft: (OAuthClientCredentials & { tenant: string }) | undefined;
  demo: { enabled: boolean; emulatorPort: number };
  authRateLimitPerMinute: number;
  /** API_USER_*: requests one person may run alone, run while others are active, and queue. */
  fairness: { perUser: number; contendedPerUser: number; queuePerUser: number; idleMs: number };
  trustProxyHops: number;
  gmailPushTopic: string;
  gmailUnitsPerMinute: number;
  /** PROVIDER_WRITE_TIMEOUT_MS: the longest a write-back holds up the person's request. */
  providerWriteTimeoutMs: number;
  /** ATTACHMENT_OPEN_TIMEOUT_MS: how long a download waits for the provider to start answering. */
  attachmentOpenTimeoutMs: number;
  /** Test-only routes such as moving the server clock; off unless ENABLE_TEST_HOOKS=1. */
  testHooks: boolean;
  /** host:port pairs exempt from the unsubscribe SSRF guard (tests only). */
  unsubscribeAllowHosts: string[];
  sync: {
    depthDays: number;
    pollSeconds: number;
    leaseSeconds: number;
    pushWebhookSecret: string | undefined;
  };
  /** Web Push: configured VAPID keys (else generated into DATA_DIR), subject, allowed local hosts. */
  notifications: {
    vapidKeys: { publicKey: string; privateKey: string } | undefined;
    vapidSubject: string;
    pushAllowHosts: string[];
  };
  /** Seconds between privacy sweeps (due deletions, daily retention) in worker roles. */
  privacySweepSeconds: number;
  /** Seconds a worker's claim on a due action lasts (decision 0069). */
  dueActionLeaseSeconds: number;
  /** Due actions a worker claims at once and runs side by side. */
  dueActionBatchSize: number;
  ai: AiConfig;
  /** The leaderboard's cut-offs (docs/game-scoring.md). */
  game: { foundingMemberUntil: Date; earlyAdopterUntil: Date };
}

export type AiProvider = Env["AI_PROVIDER"];

/** The AI engines: "local" alone, or a provider whose failures fall back to local. */
export interface AiConfig {
  provider: AiProvider;
  baseUrl: string | undefined;
  apiKey: string | undefined;
  models: { analysis: string; drafting: string };
  timeoutMs: number;
  maxConcurrencyPerUser: number;
  /** Model calls per user and window; null = no limit. */
  budget: { perMinute: number | null; perDay: number | null };
}

const DEFAULT_MODELS: Record<AiProvider, { analysis: string; drafting: string }> = {
  local: { analysis: "local", drafting: "local" },
  openai: { analysis: "gpt-4o-mini", drafting: "gpt-4o" },
  anthropic: { analysis: "claude-3-5-haiku-latest", drafting: "claude-sonnet-4-5" },
  "openai-compatible": { analysis: "gpt-4o-mini", drafting: "gpt-4o" },
};

function aiConfig(e: Env): AiConfig {
  const provider = e.AI_PROVIDER;
  const problems: string[] = [];
  if (provider === "openai-compatible" && !e.AI_BASE_URL)
    problems.push("AI_BASE_URL is required for openai-compatible");
  if ((provider === "openai" || provider === "anthropic") && !e.AI_API_KEY) {
    problems.push(`AI_API_KEY is required for ${provider}`);
  }
  if (problems.length > 0) {
    throw new ConfigError(`Invalid environment configuration:\n  ${problems.join("\n  ")}`);
  }
  const defaults = DEFAULT_MODELS[provider];
  return {
    provider,
    baseUrl: e.AI_BASE_URL?.replace(/\/$/, ""),
    apiKey: e.AI_API_KEY,
    models: {
      analysis: e.AI_MODEL_ANALYSIS ?? defaults.analysis,
      drafting: e.AI_MODEL_DRAFTING ?? e.AI_MODEL_ANALYSIS ?? defaults.drafting,
    },
    timeoutMs: e.AI_TIMEOUT_MS,
    maxConcurrencyPerUser: e.AI_MAX_CONCURRENCY_PER_USER,
    budget: {
      perMinute: e.AI_CALLS_PER_MINUTE === 0 ? null : e.AI_CALLS_PER_MINUTE,
      perDay: e.AI_CALLS_PER_DAY === 0 ? null : e.AI_CALLS_PER_DAY,
    },
  };
}

function hostList(value: string): string[] {
  return value
    .split(",")
    .map((h) => h.trim())
    .filter((h) => h !== "");
}

function notificationsConfig(e: Env, emulatorUrl: string | undefined): Config["notifications"] {
  if (Boolean(e.VAPID_PUBLIC_KEY) !== Boolean(e.VAPID_PRIVATE_KEY))
    throw new ConfigError(
      "Invalid environment configuration:\n  VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together",
    );
  const allow = hostList(e.PUSH_ALLOW_HOSTS);
  // The emulator's push service is a local address the SSRF guard would refuse.
  if (emulatorUrl) allow.push(new URL(emulatorUrl).host);
  return {
    vapidKeys:
      e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY
        ? { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY }
        : undefined,
    vapidSubject: e.VAPID_SUBJECT ?? "mailto:postmaster@mailwise.invalid",
    pushAllowHosts: allow,
  };
}

export interface OAuthClientCredentials {
  clientId: string;
  clientSecret: string;
}

/** Base URLs (no trailing slash) of the hosts we call; each maps to one real host. */
export interface ProviderEndpoints {
  googleAccounts: string;
  googleOAuth2: string;
  googleOpenId: string;
  googleApis: string;
  gmail: string;
  microsoftLogin: string;
  graph: string;
}

export const REAL_HOSTS = {
  googleAccounts: "accounts.google.com",
  googleOAuth2: "oauth2.googleapis.com",
  googleOpenId: "openidconnect.googleapis.com",
  googleApis: "www.googleapis.com",
  gmail: "gmail.googleapis.com",
  microsoftLogin: "login.microsoftonline.com",
  graph: "graph.microsoft.com",
} as const satisfies Record<keyof ProviderEndpoints, string>;

/** Client registrations the emulator accepts in demo mode. */
export const DEMO_CLIENTS = {
  google: { clientId: "mailwise-demo-google", clientSecret: "mailwise-demo-google-secret" },
  microsoft: { clientId: "mailwise-demo-microsoft", clientSecret: "mailwise-demo-microsoft-secret" },
} as const;

function endpoints(e: Env, emulatorUrl: string | undefined): ProviderEndpoints {
  const base = (key: keyof ProviderEndpoints, explicit: string | undefined) =>
    (
      explicit ??
      (emulatorUrl ? `${emulatorUrl.replace(/\/$/, "")}/${REAL_HOSTS[key]}` : `https://${REAL_HOSTS[key]}`)
    ).replace(/\/$/, "");
  return {
    googleAccounts: base("googleAccounts", e.GOOGLE_ACCOUNTS_URL),
    googleOAuth2: base("googleOAuth2", e.GOOGLE_OAUTH2_URL),
    googleOpenId: base("googleOpenId", e.GOOGLE_OPENID_URL),
    googleApis: base("googleApis", e.GOOGLE_APIS_URL),
    gmail: base("gmail", e.GMAIL_API_URL),
    microsoftLogin: base("microsoftLogin", e.MICROSOFT_LOGIN_URL),
    graph: base("graph", e.GRAPH_URL),
  };
}

function withTenant(c: OAuthClientCredentials | undefined, tenant: string) {
  return c ? { ...c, tenant } : undefined;
}

function pair(
  id: string | undefined,
  secret: string | undefined,
  name: string,
): OAuthClientCredentials | undefined {
  if (!id && !secret) return undefined;
  if (!id || !secret)
    throw new ConfigError(
      `Invalid environment configuration:\n  ${name}_CLIENT_ID and ${name}_CLIENT_SECRET must be set together`,
    );
  return { clientId: id, clientSecret: secret };
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Parses the environment; throws ConfigError naming every bad variable. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings in .env files mean "unset", not "set to nothing".
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid environment configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const google = pair(e.GOOGLE_CLIENT_ID, e.GOOGLE_CLIENT_SECRET, "GOOGLE");
  const microsoft = pair(e.MICROSOFT_CLIENT_ID, e.MICROSOFT_CLIENT_SECRET, "MICROSOFT");
  const demo = e.DEMO_MODE === "on" || (e.DEMO_MODE === "auto" && !google && !microsoft);
  // Demo mode runs the emulator beside the app, so every provider call goes there unless told otherwise.
  const emulatorUrl = e.PROVIDER_EMULATOR_URL ?? (demo ? `http://127.0.0.1:${e.EMULATOR_PORT}` : undefined);
  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ""),
    dataDir,
    database: e.DATABASE_URL
      ? { kind: "postgres", url: e.DATABASE_URL }
      : { kind: "pglite", dir: path.join(dataDir, "pglite") },
    databaseStartTimeoutMs: e.DATABASE_START_TIMEOUT_SECONDS * 1000,
    vacuumIntervalMs: e.DB_VACUUM_INTERVAL_SECONDS * 1000,
    logLevel: e.LOG_LEVEL,
    webDistDir: path.resolve(e.WEB_DIST_DIR),
    secretKey: e.SECRET_KEY,
    providers: endpoints(e, emulatorUrl),
    google: google ?? (demo ? { ...DEMO_CLIENTS.google } : undefined),
    microsoft: withTenant(
      microsoft ?? (demo ? { ...DEMO_CLIENTS.microsoft } : undefined),
      e.MICROSOFT_TENANT,
    ),
    demo: { enabled: demo, emulatorPort: e.EMULATOR_PORT },
    authRateLimitPerMinute: e.AUTH_RATE_LIMIT_PER_MINUTE,
    fairness: {
      perUser: e.API_USER_CONCURRENCY,
      contendedPerUser: e.API_USER_SHARE,
      queuePerUser: e.API_USER_QUEUE,
      idleMs: 1_000,
    },
    trustProxyHops: e.TRUST_PROXY_HOPS,
    gmailPushTopic: e.GMAIL_PUSH_TOPIC,
    gmailUnitsPerMinute: e.GMAIL_UNITS_PER_MINUTE,
    providerWriteTimeoutMs: e.PROVIDER_WRITE_TIMEOUT_MS,
    attachmentOpenTimeoutMs: e.ATTACHMENT_OPEN_TIMEOUT_MS,
    testHooks: e.ENABLE_TEST_HOOKS === "1",
    unsubscribeAllowHosts: e.UNSUBSCRIBE_ALLOW_HOSTS.split(",")
      .map((h) => h.trim())
      .filter((h) => h !== ""),
    sync: {
      depthDays: e.SYNC_DEPTH_DAYS,
      pollSeconds: e.SYNC_POLL_SECONDS,
      leaseSeconds: e.SYNC_LEASE_SECONDS,
      pushWebhookSecret: e.PUSH_WEBHOOK_SECRET,
    },
    notifications: notificationsConfig(e, emulatorUrl),
    privacySweepSeconds: e.PRIVACY_SWEEP_SECONDS,
    dueActionLeaseSeconds: e.DUE_ACTION_LEASE_SECONDS,
    dueActionBatchSize: e.DUE_ACTION_BATCH_SIZE,
    ai: aiConfig(e),
    game: {
      foundingMemberUntil: new Date(e.FOUNDING_MEMBER_UNTIL),
      earlyAdopterUntil: new Date(e.EARLY_ADOPTER_UNTIL),
    },
  };
}
