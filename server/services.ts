import { type AiServices, createAiServices } from "./ai/index.ts";
import type { AuthServices } from "./auth/services.ts";
import { createAuthServices } from "./auth/services.ts";
import { loadSecretKey } from "./auth/token-vault.ts";
import type { Config } from "./config.ts";
import type { Database } from "./db/client.ts";
import { createEventBus, type EventBus } from "./events.ts";
import { JobQueue } from "./jobs/queue.ts";
import { defineSyncJobs } from "./jobs/sync-jobs.ts";
import { type Clock, createClock } from "./lib/clock.ts";
import { defineUnsubscribeJob } from "./mail/unsubscribe/job.ts";
import { createMailProviderClient } from "./providers/factory.ts";
import { createSyncServices, type SyncServices } from "./sync/index.ts";
import { createPushSecrets, type PushSecrets } from "./sync/push-secrets.ts";
import { loadState } from "./sync/sync-state.ts";
import type { ProviderClientFactory, SyncLogger } from "./sync/types.ts";

/** web: serves HTTP and enqueues; worker: runs jobs and the sync poller; all: both. */
export type Role = "web" | "worker" | "all";

export interface Services {
  role: Role;
  clock: Clock;
  auth: AuthServices;
  queue: JobQueue;
  sync: SyncServices;
  pushSecrets: PushSecrets;
  /** Domain events (email.archived, ...) shared by every feature of this process. */
  events: EventBus;
  clientFor: ProviderClientFactory;
  /** Agent, memories, analysis and drafting; their jobs run on the worker role. */
  ai: AiServices;
  /** Runs an unsubscribe request as a durable job (worker role). */
  scheduleUnsubscribe: (requestId: string) => Promise<void>;
  /** Starts the queue (every role enqueues) and, for worker roles, job processing and polling. */
  start(): Promise<void>;
  /** Stops polling and the queue, letting running jobs finish. */
  stop(): Promise<void>;
}

export interface ServicesOptions {
  config: Config;
  database: Database;
  role: Role;
  clock?: Clock;
  log?: SyncLogger & { info(obj: object, msg: string): void };
  /** Tests inject provider clients with shorter timeouts, or fakes. */
  clientFor?: ProviderClientFactory;
  /** Job polling interval; tests use less than the default second. */
  jobPollingSeconds?: number;
  leaseWaitMs?: number;
  backfillBudgetMs?: number;
  analysisBudgetMs?: number;
  /** Benchmarks of sync alone turn off the analysis that follows every synced page (default on). */
  analyseAfterSync?: boolean;
}

const consoleLog: Required<ServicesOptions>["log"] = {
  info: () => undefined,
  warn: (obj, msg) => console.warn(msg, obj),
  error: (obj, msg) => console.error(msg, obj),
};

/**
 * The composition root: builds auth, the job queue and the sync engine once per process, for
 * app.ts (routes) and main.ts (roles). Sign-in tells sync about new accounts through a hook, so
 * auth knows nothing of jobs.
 */
export async function createServices(options: ServicesOptions): Promise<Services> {
  const { config, database, role } = options;
  const clock = options.clock ?? createClock();
  const log = options.log ?? consoleLog;
  let sync: SyncServices | undefined;
  const events = createEventBus({
    error: (obj, msg) => log.error({ detail: obj }, msg ?? "event listener failed"),
  });
  const auth = await createAuthServices({
    config,
    db: database.db,
    clock,
    // The embedded database belongs to this one process, so cached session lookups stay coherent
    // (logout evicts here); they spare PGlite's single connection a query per request.
    sessionCacheMs: database.kind === "pglite" ? 2_000 : 0,
    // PostgreSQL may have several web and worker processes refreshing the same account, so they
    // take a row lock; PGlite's single process (and single connection) needs only its own queue.
    tokenRefreshLock: database.kind === "postgres" ? "database" : "process",
    onAccountConnected: async ({ userId, accountId }) => {
      events.emit("accounts.changed", { userId });
      await sync?.service.accountConnected(accountId);
    },
    onAccountRemoved: ({ userId }) => events.emit("accounts.changed", { userId }),
  });
  const pushSecrets = createPushSecrets({
    configured: config.sync.pushWebhookSecret,
    secretKey: await loadSecretKey(config),
  });
  const clientFor: ProviderClientFactory =
    options.clientFor ??
    ((account) => createMailProviderClient({ account, config, accountTokens: auth.accountTokens }));
  const queue = new JobQueue(database, {
    log: {
      info: () => undefined,
      warn: (m: string) => log.warn({}, m),
      error: (m: string) => log.error({}, m),
    },
    ...(options.jobPollingSeconds === undefined ? {} : { pollingIntervalSeconds: options.jobPollingSeconds }),
  });
  sync = createSyncServices({
    db: database.db,
    queue,
    clock,
    log,
    clientFor,
    secrets: pushSecrets,
    publicUrl: config.publicUrl,
    depthDays: config.sync.depthDays,
    pollSeconds: config.sync.pollSeconds,
    gmailUnitsPerMinute: config.gmailUnitsPerMinute,
    ...(options.leaseWaitMs === undefined ? {} : { leaseWaitMs: options.leaseWaitMs }),
    ...(options.backfillBudgetMs === undefined ? {} : { backfillBudgetMs: options.backfillBudgetMs }),
  });
  // Each finished sync step announces its account, after its transaction committed, so the AI
  // analysis reads the new rows (the analysis job itself finds what is not analysed yet).
  const syncer = sync.syncer;
  defineSyncJobs(queue, {
    ...syncer,
    async syncAccount(accountId, reason) {
      await syncer.syncAccount(accountId, reason);
      events.emit("emails.synced", { accountId });
    },
    async backfill(accountId) {
      await syncer.backfill(accountId);
      // Analysis waits for the backfill to finish: on one core (and one PGlite connection) it
      // would otherwise halve the sync rate of a big mailbox. The first page, synced before the
      // backfill starts, is analysed at once.
      if ((await loadState(database.db, accountId))?.backfillDone)
        events.emit("emails.synced", { accountId });
    },
  });
  const { scheduleUnsubscribe } = defineUnsubscribeJob(queue, {
    db: database.db,
    clock,
    events,
    providerClient: clientFor,
    allowHosts: config.unsubscribeAllowHosts,
  });
  const ai = createAiServices({
    config,
    db: database.db,
    clock,
    queue,
    events,
    providerClient: clientFor,
    ...(options.analysisBudgetMs === undefined ? {} : { analysisBudgetMs: options.analysisBudgetMs }),
    ...(options.analyseAfterSync === undefined ? {} : { analyseAfterSync: options.analyseAfterSync }),
  });
  const syncServices = sync;
  const works = role === "worker" || role === "all";
  let started = false;
  return {
    role,
    clock,
    auth,
    queue,
    sync: syncServices,
    pushSecrets,
    events,
    clientFor,
    scheduleUnsubscribe,
    ai,
    async start() {
      if (started) return;
      started = true;
      await queue.start();
      if (works) {
        await queue.work();
        syncServices.poller.start();
        await ai.jobs.kick();
      }
    },
    async stop() {
      if (!started) return;
      started = false;
      await syncServices.poller.stop();
      await queue.stop();
    },
  };
}
