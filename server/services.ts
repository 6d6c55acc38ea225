import { createHmac } from "node:crypto";
import { z } from "zod";
import { isVip } from "./ai/analysis-context.ts";
import { type AiServices, createAiServices } from "./ai/index.ts";
import type { AuthServices } from "./auth/services.ts";
import { createAuthServices } from "./auth/services.ts";
import { loadSecretKey } from "./auth/token-vault.ts";
import type { CalendarClientFactory } from "./calendar/factory.ts";
import { type CalendarServices, createCalendarServices } from "./calendar/index.ts";
import type { Config } from "./config.ts";
import type { Database } from "./db/client.ts";
import { ANALYZE_EVERY_ROWS, createMaintenance, type Maintenance } from "./db/maintenance.ts";
import { createEventBus, type EventBus } from "./events.ts";
import { createLiveEvents, type LiveEvents } from "./events-stream/index.ts";
import type { GameService } from "./game/game-service.ts";
import { createGameServices } from "./game/index.ts";
import {
  createDueActionAttention,
  type DueActionAttentionService,
  type DueActionDescriber,
} from "./jobs/due-actions/attention.ts";
import { createDueActionStore } from "./jobs/due-actions/store.ts";
import {
  createDueActionSweeper,
  type DueActionHandler,
  type DueActionSweeper,
} from "./jobs/due-actions/sweeper.ts";
import { JobQueue } from "./jobs/queue.ts";
import { defineSyncJobs } from "./jobs/sync-jobs.ts";
import { type Clock, createClock } from "./lib/clock.ts";
import { syncAccountOf } from "./mail/accounts.ts";
import { createAttachmentLinks } from "./mail/attachments/links.ts";
import { type ContactBook, createContactBook } from "./mail/contacts/contact-book.ts";
import { createFollowUps, FOLLOWUP_ACTION } from "./mail/followups/followup-service.ts";
import { createOutbox, describeHeldMail, type Outbox, SEND_ACTION } from "./mail/outbox/outbox-service.ts";
import { createScheduledStore } from "./mail/outbox/scheduled-store.ts";
import { createSenderWithFiles } from "./mail/sender-with-files.ts";
import { createSnoozer, SNOOZE_WAKE, type Snoozer } from "./mail/snooze/snooze-service.ts";
import { defineUnsubscribeJob } from "./mail/unsubscribe/job.ts";
import { startUploadSweep } from "./mail/uploads/sweep.ts";
import { removeUserUploads, uploadsDirOf } from "./mail/uploads/upload-store.ts";
import { createNotificationServices, type NotificationServices } from "./notifications/index.ts";
import { createAccountDeleter } from "./privacy/deletion.ts";
import { createPrivacyServices, type PrivacyServices } from "./privacy/service.ts";
import { createMailProviderClient } from "./providers/factory.ts";
import { createSyncServices, type SyncServices } from "./sync/index.ts";
import type { SyncOutcome } from "./sync/mailbox-syncer.ts";
import { createPushSecrets, type PushSecrets } from "./sync/push-secrets.ts";
import { closePush, reopenPush, stopChannels } from "./sync/push-stop.ts";
import { loadState } from "./sync/sync-state.ts";
import type { ProviderClientFactory, SyncLogger } from "./sync/types.ts";

const VACUUM_JOB = "db.vacuum";

/** web: serves HTTP and enqueues; worker: runs jobs and the sync poller; all: both. */
export type Role = "web" | "worker" | "all";

export interface Services {
  role: Role;
  clock: Clock;
  auth: AuthServices;
  queue: JobQueue;
  sync: SyncServices;
  pushSecrets: PushSecrets;
  /** Signs attachment links (server/mail/attachments/links.ts); derived from the secret key. */
  attachmentLinkKey: Buffer;
  /** Domain events (email.archived, ...) shared by every feature of this process. */
  events: EventBus;
  /** The live inbox (issue 38): domain events published to the tabs' streams. */
  live: LiveEvents;
  clientFor: ProviderClientFactory;
  /** Connected calendars: integrations, sync, events. */
  calendar: CalendarServices;
  /** Agent, memories, analysis and drafting; their jobs run on the worker role. */
  ai: AiServices;
  /** Achievements and the leaderboard, fed by the domain events of confirmed actions. */
  game: GameService;
  /** Privacy settings, export, deletion and the sweep (due deletions, daily retention). */
  privacy: PrivacyServices;
  /** Recipient suggestions (issue 36), kept from emails.synced and email.sent in every role. */
  contacts: ContactBook;
  /** Statistics and space upkeep: ANALYZE after large writes, scheduled VACUUM on PGlite. */
  maintenance: Maintenance;
  /** Held mail (Undo send): stored by the web role, sent by the worker's due-action sweep. */
  outbox: Outbox;
  /** Notifications (issue 38): the setting, push subscriptions, and the notifier after analysis. */
  notifications: NotificationServices;
  /** Snooze (issue 37): routes in the web role, its `snooze.wake` due actions in the worker's sweep. */
  snoozer: Snoozer;
  /** Due actions that need the person, of every kind: failed or waiting for a reconnect; Retry, Dismiss. */
  dueActions: DueActionAttentionService;
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
  /** Tests inject calendar clients with shorter timeouts. */
  calendarClientFor?: CalendarClientFactory;
  /** Job polling interval; tests use less than the default second. */
  jobPollingSeconds?: number;
  leaseWaitMs?: number;
  backfillBudgetMs?: number;
  analysisBudgetMs?: number;
  /** Due actions (held mail): how often the sweep looks, and how long a claim lasts. */
  dueActionPollMs?: number;
  dueActionLeaseMs?: number;
  /** PGlite's VACUUM schedule (default an hour). */
  vacuumIntervalMs?: number;
  /** Benchmarks of sync alone turn off the analysis that follows every synced page (default on). */
  analyseAfterSync?: boolean;
  /** Tests shorten the live streams' keep-alive and lifetime. */
  liveHub?: { keepAliveMs?: number; maxStreamMs?: number; keepMs?: number; ringSize?: number };
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
  let sweeper: DueActionSweeper | undefined;
  const events = createEventBus({
    error: (obj, msg) => log.error({ detail: obj }, msg ?? "event listener failed"),
  });
  // Subscribed before anything can emit: every role records the actions it confirms.
  const game = createGameServices({ db: database.db, clock, config: config.game, events, log });
  const contacts = createContactBook({ db: database.db, clock, events, log });
  const live = createLiveEvents({
    config,
    database,
    events,
    serves: role !== "worker",
    log,
    ...(options.liveHub ? { hub: options.liveHub } : {}),
  });
  // Due actions (decisions 0069, 0073): made here, before sign-in, which releases the ones
  // waiting for a reconnect.
  const dueActionStore = createDueActionStore(database.db);
  const auth = await createAuthServices({
    config,
    db: database.db,
    clock,
    // Cached session lookups spare the database a query per request (issue 39). A logout evicts
    // them here and, through the live notices (NOTIFY on PostgreSQL), in every web process
    // (decision 0089); the 2 s bound covers a notice lost while the listener reconnects.
    sessionCacheMs: 2_000,
    announceSessionsEnded: (ended) => void live.sessionsEnded(ended),
    // PostgreSQL may have several web and worker processes refreshing the same account, so they
    // take a row lock; PGlite's single process (and single connection) needs only its own queue.
    tokenRefreshLock: database.kind === "postgres" ? "database" : "process",
    onAccountConnected: async ({ userId, accountId }) => {
      events.emit("accounts.changed", { userId });
      // Actions stopped by a revoked grant run now that the person reconnected (decision 0073).
      if ((await dueActionStore.releaseWaiting(userId, clock.now())) > 0) sweeper?.wake();
      await sync?.service.accountConnected(accountId);
    },
    onAccountRemoved: ({ userId }) => events.emit("accounts.changed", { userId }),
    pushStopper: {
      async stop(userId, accountId) {
        const row = await auth.accounts.get(userId, accountId);
        const closed = await closePush(database.db, [accountId]);
        if (row) await stopChannels(closed, [syncAccountOf(row)], clientFor, log);
        return {
          async reopen() {
            await reopenPush(database.db, accountId);
            await sync?.scheduler.watchRenew(accountId);
          },
        };
      },
    },
  });
  live.onNotice(
    (notice) => {
      if (notice.kind === "sessions.ended") auth.sessions.evict(notice);
    },
    () => auth.sessions.evictAll(),
  );
  const secretKey = await loadSecretKey(config);
  const pushSecrets = createPushSecrets({ configured: config.sync.pushWebhookSecret, secretKey });
  const attachmentLinkKey = createHmac("sha256", secretKey).update("mailwise/attachments/links/v1").digest();
  const clientFor: ProviderClientFactory =
    options.clientFor ??
    ((account) => createMailProviderClient({ account, config, accountTokens: auth.accountTokens }));
  const queue = new JobQueue(database, {
    // Expired jobs (a killed worker's) are failed at maintenance: check about as often as leases
    // change hands (half a lease, at most 30 s) so they do not look active long after their expiry.
    maintenanceIntervalSeconds: Math.min(30, Math.max(1, Math.round(config.sync.leaseSeconds / 2))),
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
    leaseSeconds: config.sync.leaseSeconds,
    gmailUnitsPerMinute: config.gmailUnitsPerMinute,
    ...(options.leaseWaitMs === undefined ? {} : { leaseWaitMs: options.leaseWaitMs }),
    ...(options.backfillBudgetMs === undefined ? {} : { backfillBudgetMs: options.backfillBudgetMs }),
    onChanges: (change) => events.emit("emails.changedBySync", change),
  });
  const maintenance = createMaintenance(database);
  // Backfilled rows per account at its last ANALYZE (this process's view; a restart analyses again).
  const analysedAt = new Map<string, number>();
  const analyseAfterBackfill = async (accountId: string, synced: number, done: boolean) => {
    const last = analysedAt.get(accountId) ?? 0;
    if (synced - last < ANALYZE_EVERY_ROWS && !(done && synced !== last)) return;
    analysedAt.set(accountId, synced);
    await maintenance
      .analyze(done ? "backfill finished" : `${synced - last} rows backfilled`)
      .catch((err: unknown) => log.warn({ err: (err as Error).message }, "analyze after backfill failed"));
  };
  // Each finished sync step announces its account, after its transaction committed, so the AI
  // analysis reads the new rows (the analysis job itself finds what is not analysed yet).
  const syncer = sync.syncer;
  defineSyncJobs(
    queue,
    {
      ...syncer,
      async syncAccount(accountId, reason) {
        let outcome: SyncOutcome | undefined;
        try {
          outcome = await syncer.syncAccount(accountId, reason);
        } finally {
          events.emit("sync.progress", { accountId });
          // A run that failed part-way may have stored rows it never announced.
          if (!outcome) events.emit("emails.touched", { accountId });
        }
        events.emit("emails.synced", { accountId, rowsAnnounced: outcome.rowsAnnounced });
        return outcome;
      },
      async backfill(accountId) {
        try {
          await syncer.backfill(accountId);
        } finally {
          events.emit("sync.progress", { accountId });
        }
        const state = await loadState(database.db, accountId);
        // Statistics follow large writes at once (the end of a page run, every ANALYZE_EVERY_ROWS
        // rows, the end of the pass): the planner must not plan a synced mailbox as an empty one.
        if (state) await analyseAfterBackfill(accountId, state.syncedCount, state.backfillDone);
        // Analysis waits for the backfill to finish: on one core (and one PGlite connection) it
        // would otherwise halve the sync rate of a big mailbox. The first page, synced before the
        // backfill starts, is analysed at once.
        if (state?.backfillDone) events.emit("emails.synced", { accountId });
      },
    },
    { leaseSeconds: config.sync.leaseSeconds },
  );
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
  // After the analysis (worker roles emit emails.analysed), new mail is decided once and pushed.
  const notifications = await createNotificationServices({
    config,
    db: database.db,
    clock,
    events,
    vipOf: async (userId) => {
      const prefs = (await ai.agents.settings(userId))?.preferences;
      return (address) => isVip(address, prefs);
    },
    log,
  });
  const calendar = createCalendarServices({
    config,
    db: database.db,
    clock,
    vault: auth.vault,
    providers: auth.providers,
    states: auth.states,
    accounts: auth.accounts,
    tokenRefreshLock: database.kind === "postgres" ? "database" : "process",
    log,
    providerClient: clientFor,
    ...(options.calendarClientFor ? { clientFor: options.calendarClientFor } : {}),
  });
  const privacy = createPrivacyServices({
    db: database.db,
    clock,
    queue,
    deleter: createAccountDeleter({
      db: database.db,
      vault: auth.vault,
      providers: auth.providers,
      clientFor,
      forgetSessions: (userId) => auth.sessions.forgetUser(userId),
      removeFiles: (userId) => removeUserUploads(uploadsDirOf(config), userId),
      log,
    }),
    sweepSeconds: config.privacySweepSeconds,
    log,
  });
  // PGlite has no autovacuum: a queued job (one at a time, by its singleton key) vacuums on a
  // schedule and queues its next run. PostgreSQL keeps its own autovacuum.
  const vacuumIntervalMs = options.vacuumIntervalMs ?? config.vacuumIntervalMs;
  const scheduleVacuum = () =>
    queue.send(VACUUM_JOB, {}, { singletonKey: VACUUM_JOB, delayMs: vacuumIntervalMs }).then(() => undefined);
  if (database.kind === "pglite") {
    queue.define({
      name: VACUUM_JOB,
      schema: z.object({}),
      maxAttempts: 3,
      handler: async () => {
        await maintenance.vacuum();
        log.info({ ...maintenance.status().lastVacuum }, "database vacuumed");
        await scheduleVacuum();
      },
    });
  }
  const syncServices = sync;
  const works = role === "worker" || role === "all";
  // Due actions (decision 0069): the worker role sweeps them by this process's clock.
  // One handler per kind; issue 37 adds its kinds (snooze wake-up, follow-up check) here, each
  // with a describer that puts a failed one in words for the person (decision 0073).
  const handlers = new Map<string, DueActionHandler>();
  // A due action (a wake, a follow-up, a held send) changes the person's mail in this worker with
  // no notice of its own: web processes drop their cached reads (decision 0078), and the person's
  // tabs read their views again (the Snoozed card too), as nobody there asked for the change.
  const touching =
    (handler: DueActionHandler): DueActionHandler =>
    async (action) => {
      try {
        await handler(action);
      } finally {
        void live.touch(action.userId, { tabs: true });
      }
    };
  const describers = new Map<string, DueActionDescriber>();
  sweeper = createDueActionSweeper({
    store: dueActionStore,
    clock,
    handlers,
    log,
    ...(options.dueActionPollMs === undefined ? {} : { pollMs: options.dueActionPollMs }),
    leaseMs: options.dueActionLeaseMs ?? config.dueActionLeaseSeconds * 1000,
    batchSize: config.dueActionBatchSize,
  });
  // Follow-up reminders (issue 37): checked by the sweep, cancelled by replies any sync brings.
  const followUps = createFollowUps({
    db: database.db,
    clock,
    store: dueActionStore,
    clientFor,
    events,
    requestSync: (accountId) => syncServices.service.requestSync(accountId, "action"),
    log,
  });
  followUps.listen();
  handlers.set(FOLLOWUP_ACTION, touching(followUps.check));
  // The same sender as the mail API's: held mail may carry files and a draft to remove.
  const withFiles = createSenderWithFiles({
    db: database.db,
    clock,
    events,
    providerClient: clientFor,
    links: createAttachmentLinks(attachmentLinkKey, clock),
    uploadsDir: uploadsDirOf(config),
    attachmentOpenTimeoutMs: config.attachmentOpenTimeoutMs,
    writeTimeoutMs: config.providerWriteTimeoutMs,
    log,
  });
  const outbox = createOutbox({
    db: database.db,
    clock,
    store: dueActionStore,
    scheduled: createScheduledStore(database.db),
    sender: withFiles.sender,
    followUps,
    discardUploads: (userId, ids) => withFiles.uploads.consume(userId, ids),
    removeDraft: (userId, draftId) => withFiles.drafts.remove(userId, draftId),
    log,
    runClaimed: (claim) => sweeper.runClaimed(claim),
  });
  handlers.set(SEND_ACTION, touching(outbox.sendHeld));
  const snoozer = createSnoozer({
    db: database.db,
    clock,
    providerClient: clientFor,
    wakeSweeper: () => sweeper?.wake(),
    log,
  });
  handlers.set(SNOOZE_WAKE, touching(snoozer.wake));
  // A new message in a snoozed conversation wakes it early (synced by the worker, which sweeps).
  events.on("emails.synced", async ({ accountId }) => {
    if ((await snoozer.wakeOnReplies(accountId)) > 0) events.emit("emails.touched", { accountId });
  });
  // A wake stopped by a revoked grant waits (decision 0073); sign-in's releaseWaiting runs it.
  describers.set(SEND_ACTION, describeHeldMail);
  const dueActions = createDueActionAttention({
    store: dueActionStore,
    clock,
    describers,
    wake: () => sweeper?.wake(),
  });
  let started = false;
  let stopHearingRecovery: (() => void) | undefined;
  let stopUploadSweep: (() => void) | undefined;
  return {
    role,
    clock,
    auth,
    queue,
    sync: syncServices,
    pushSecrets,
    attachmentLinkKey,
    events,
    live,
    clientFor,
    scheduleUnsubscribe,
    outbox,
    notifications,
    snoozer,
    dueActions,
    maintenance,
    ai,
    calendar,
    game,
    privacy,
    contacts,
    async start() {
      if (started) return;
      started = true;
      if (works) await game.applyCutOffs();
      await live.start();
      await queue.start();
      if (works) {
        await queue.work();
        if (database.kind === "pglite") await scheduleVacuum();
        syncServices.poller.start();
        await ai.jobs.kick();
        privacy.startScheduler();
        // Overdue held mail (the server was down when it was due) goes at the first sweep.
        sweeper.start();
        stopUploadSweep = startUploadSweep({ db: database.db, clock, dir: uploadsDirOf(config), log });
        // Once a full disk has room again, mail that arrived meanwhile is fetched at once.
        stopHearingRecovery = database.storage.onRecovered(() => {
          syncServices
            .resumeAll()
            .catch((err: unknown) =>
              log.warn({ error: err instanceof Error ? err.message : "unknown" }, "sync resume failed"),
            );
        });
      }
    },
    async stop() {
      if (!started) return;
      started = false;
      stopHearingRecovery?.();
      privacy.stopScheduler();
      await sweeper.stop();
      stopUploadSweep?.();
      await syncServices.poller.stop();
      syncServices.actionSyncs.stop();
      await queue.stop();
      await ai.close();
      await game.idle();
      await contacts.idle();
      await notifications.notifier.idle();
      await live.stop();
    },
  };
}
