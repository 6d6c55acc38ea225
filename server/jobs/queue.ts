import { AsyncLocalStorage } from "node:async_hooks";
import PgBoss from "pg-boss";
import type { z } from "zod";
import type { Database } from "../db/client.ts";
import { isConnectionError } from "../db/connection-errors.ts";
import { isStorageFullError } from "../db/storage-errors.ts";
import { classifyFailure, decideRetry } from "./retry-policy.ts";

export interface JobContext {
  /** 0 for the first run. */
  attempt: number;
  jobId: string;
}

export interface JobDefinition<S extends z.ZodType> {
  name: string;
  schema: S;
  handler: (data: z.infer<S>, ctx: JobContext) => Promise<void>;
  /** Attempts before giving up on transient failures. */
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Jobs fetched per poll. */
  batchSize?: number;
  /**
   * How long a started job counts as active (pg-boss's default: 15 minutes). Past it, queue
   * maintenance fails the job of a process that died, and a live worker stops waiting for its
   * batch (the handler itself runs on). Set per queue.
   */
  expireInSeconds?: number;
}

export interface SendOptions {
  /** At most one queued (not yet started) job per key: repeated triggers collapse. */
  singletonKey?: string;
  delayMs?: number;
  /**
   * Start it at once when this process works the queue, instead of at the worker's next poll
   * (up to the polling interval later). For work someone waits on, e.g. a push sync.
   */
  wake?: boolean;
}

interface Envelope {
  payload: unknown;
  attempt: number;
}

type Logger = Pick<Console, "info" | "warn" | "error">;

/**
 * Durable jobs in the database through pg-boss, the same on PGlite and PostgreSQL. Retries are
 * ours (by failure kind, see retry-policy.ts), so pg-boss itself never retries: a failed attempt
 * completes and, when worth it, schedules the next attempt with a delay.
 */
export class JobQueue {
  private readonly boss: PgBoss;
  private readonly definitions = new Map<string, JobDefinition<z.ZodType>>();
  /** pg-boss worker id per queue this process works. */
  private readonly workers = new Map<string, string>();
  private started = false;
  /** Set once stop() returned: see the adapter below. */
  private stopped = false;
  /** Marks the statements of send(): someone (often an HTTP request) waits on those. */
  private readonly sending = new AsyncLocalStorage<true>();

  constructor(
    database: Database,
    private readonly options: {
      pollingIntervalSeconds?: number;
      /** How often pg-boss fails expired jobs, archives and drops (pg-boss's default: 120 s). */
      maintenanceIntervalSeconds?: number;
      log?: Logger;
    } = {},
  ) {
    this.boss = new PgBoss({
      db: {
        // pg-boss's stop() does not wait for a worker whose fetch is in flight: its jobs can arrive
        // after stop() returned and the database closed, and pg-boss then completes or fails them
        // without awaiting. Those late calls never settle, as in a process killed at that moment:
        // no unhandled rejection, and no made-up answer (no one result suits both fetch, which
        // reads rows, and complete/fail, which read rows[0].count). The jobs stay as a killed
        // process leaves them, which the recovery at start covers (sync polling and stale queued
        // flags, the analysis kick).
        executeSql: (text, values) =>
          this.stopped ? new Promise<never>(() => {}) : this.runSql(database, text, values),
      },
      schema: "pgboss",
      // Queue maintenance needs one process at a time; pg-boss elects it with advisory locks.
      supervise: true,
      ...(options.maintenanceIntervalSeconds === undefined
        ? {}
        : { maintenanceIntervalSeconds: options.maintenanceIntervalSeconds }),
      schedule: false,
    });
    this.boss.on("error", (err) => this.log.error("job queue error", err));
  }

  /**
   * pg-boss completes and fails jobs without awaiting the promise, so a statement that fails
   * while PostgreSQL is away (restart, failover, a terminated backend) would be an unhandled
   * rejection that ends the process. A lost connection is therefore retried here, with backoff,
   * until the database answers again (or the queue stops): the worker loops pause meanwhile and
   * resume when connections come back. A full disk (decision 0053) pauses them the same way, so
   * a job's completion and its retry are written once there is room instead of being lost; only
   * send() fails at once, as its caller (an HTTP request) must answer within a second. Other
   * errors reach pg-boss as before.
   */
  private async runSql(
    database: Database,
    text: string,
    values: unknown[] | undefined,
  ): Promise<{ rows: unknown[]; rowCount: number }> {
    let delayMs = 100;
    for (let tries = 1; ; tries++) {
      try {
        return await database.executeSql(text, values);
      } catch (err) {
        const storageFull = isStorageFullError(err);
        if (!storageFull && !isConnectionError(err)) throw err;
        if (storageFull && this.sending.getStore()) throw err;
        // The database logs a full disk once per episode; a lost connection is told here.
        if (!storageFull && (tries === 1 || tries % 10 === 0))
          this.log.warn(`job queue: database connection lost (${(err as Error).message}); retrying`);
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        delayMs = Math.min(5_000, delayMs * 2);
        if (this.stopped) return new Promise<never>(() => {});
      }
    }
  }

  private get log(): Logger {
    return this.options.log ?? console;
  }

  define<S extends z.ZodType>(definition: JobDefinition<S>): void {
    if (this.definitions.has(definition.name)) throw new Error(`job ${definition.name} is defined twice`);
    // Definitions of different payload types share one map; send() and runOne() re-check payloads.
    this.definitions.set(definition.name, definition as unknown as JobDefinition<z.ZodType>);
  }

  /** Creates the schema and queues. Producers (web role) call this; only workers call work(). */
  async start(): Promise<void> {
    if (this.started) return;
    this.stopped = false;
    await this.boss.start();
    for (const [name, def] of this.definitions) {
      const expiry = def.expireInSeconds === undefined ? {} : { expireInSeconds: def.expireInSeconds };
      await this.boss.createQueue(name, { name, policy: "standard", retryLimit: 0, ...expiry });
      // createQueue leaves an existing queue as it is; a queue made before the expiry was set (or
      // with another lease) gets it here. New jobs take the queue's expiry when they are sent.
      if (def.expireInSeconds !== undefined)
        await this.boss.updateQueue(name, { name, policy: "standard", retryLimit: 0, ...expiry });
    }
    this.started = true;
  }

  async send<S extends z.ZodType>(
    name: string,
    data: z.infer<S>,
    opts: SendOptions = {},
  ): Promise<string | null> {
    const def = this.definitions.get(name);
    if (!def) throw new Error(`unknown job ${name}`);
    const payload = def.schema.parse(data);
    const envelope: Envelope = { payload, attempt: 0 };
    const id = await this.sending.run(true, () =>
      this.boss.send(name, envelope as unknown as object, {
        singletonKey: opts.singletonKey,
        startAfter: opts.delayMs ? new Date(Date.now() + opts.delayMs) : undefined,
        retryLimit: 0,
      }),
    );
    if (opts.wake && !opts.delayMs) this.wake(name);
    return id;
  }

  /** Makes this process's worker of `name` (if it has one) look for due jobs now, not at its next poll. */
  wake(name: string): void {
    const worker = this.workers.get(name);
    if (worker !== undefined) this.boss.notifyWorker(worker);
  }

  /** Starts polling every defined queue (worker role). */
  async work(): Promise<void> {
    for (const def of this.definitions.values()) {
      const worker = await this.boss.work<Envelope>(
        def.name,
        { batchSize: def.batchSize ?? 5, pollingIntervalSeconds: this.options.pollingIntervalSeconds ?? 1 },
        async (jobs) => {
          for (const job of jobs) await this.runOne(def, job.id, job.data);
        },
      );
      this.workers.set(def.name, worker);
    }
  }

  private async runOne(def: JobDefinition<z.ZodType>, jobId: string, envelope: Envelope): Promise<void> {
    const parsed = def.schema.safeParse(envelope?.payload);
    if (!parsed.success) {
      this.log.error(`job ${def.name} ${jobId} has an invalid payload; dropped`);
      return;
    }
    const attempt = envelope.attempt ?? 0;
    try {
      await def.handler(parsed.data, { attempt, jobId });
    } catch (err) {
      const failure = classifyFailure(err);
      const decision = decideRetry(failure, attempt + 1, {
        maxAttempts: def.maxAttempts ?? 5,
        baseDelayMs: def.baseDelayMs ?? 1_000,
        maxDelayMs: def.maxDelayMs ?? 5 * 60_000,
      });
      const detail = err instanceof Error ? err.message : String(err);
      if (!decision.retry) {
        this.log.warn(
          `job ${def.name} ${jobId} gave up after attempt ${attempt + 1} (${failure.kind}): ${detail}`,
        );
        return;
      }
      const next: Envelope = { payload: parsed.data, attempt: attempt + 1 };
      await this.boss.send(def.name, next as unknown as object, {
        startAfter: new Date(Date.now() + decision.delayMs),
        retryLimit: 0,
      });
    }
  }

  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    this.workers.clear();
    // Long enough for the longest job budget (analysis works up to 20 s) to finish its batch.
    await this.boss.stop({ graceful: true, wait: true, timeout: 30_000 });
    this.stopped = true;
  }
}
