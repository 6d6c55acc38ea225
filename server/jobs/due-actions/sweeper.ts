import { randomUUID } from "node:crypto";
import { isStorageEpisodeError } from "../../db/storage-errors.ts";
import type { Clock } from "../../lib/clock.ts";
import { type ClassifiedFailure, classifyFailure, decideRetry } from "../retry-policy.ts";
import type { ClaimedAction, DueActionStore } from "./store.ts";

/**
 * Runs one kind of due action. Throw to fail the run: the error's `kind` (retry-policy.ts) decides
 * whether it is retried, and its message is what the person is shown if it is given up.
 */
export type DueActionHandler = (action: ClaimedAction) => Promise<void>;

/** One statement that claims an action for `workerId` until now + leaseMs (see runClaimed). */
export type ClaimHere<A extends ClaimedAction | null = ClaimedAction | null> = (
  workerId: string,
  now: Date,
  leaseMs: number,
) => Promise<A>;

export interface SweeperOptions {
  store: DueActionStore;
  clock: Clock;
  handlers: ReadonlyMap<string, DueActionHandler>;
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** How long a claim lasts; longer than any handler run (a provider call times out well before). */
  leaseMs?: number;
  /** How often the table is asked what is due (the server's clock is read each time). */
  pollMs?: number;
  /** Actions run side by side at most (DUE_ACTION_BATCH_SIZE, decision 0073). */
  batchSize?: number;
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
}

export interface DueActionSweeper {
  start(): void;
  /** Sweep now rather than at the next poll (an action due at once was just stored). */
  wake(): void;
  /**
   * Runs here, before answering, the action that `claim` takes for this process in one statement
   * (a send with no Undo delay, Send now: the answer comes after the provider's). Claiming in the
   * same statement that stores or moves the action leaves no moment in which a sweep, of this
   * process or another, could take it and the caller answer while it still runs. Answers what was
   * claimed (null: nothing); a failed run is retried or kept like any other. Throws only when the
   * claim itself fails.
   */
  runClaimed<A extends ClaimedAction | null>(claim: ClaimHere<A>): Promise<A>;
  /** Stops polling and waits for the running batch. */
  stop(): Promise<void>;
}

/**
 * The failure kind of a handler's error: its own `kind`, or reauth for the API's
 * provider_reauth_required error, so every kind's handler waits for a reconnect the same way.
 */
function failureOf(err: unknown): ClassifiedFailure {
  if (err && typeof err === "object" && "code" in err && err.code === "provider_reauth_required")
    return { kind: "reauth" };
  return classifyFailure(err);
}

/**
 * The worker role's sweep of due_actions (decision 0069): claim what is due by the server's
 * clock, run each handler, mark it done (or retry by the failure policy, or keep it as failed).
 * Overdue actions (the server was down) are simply due at the first sweep after start.
 */
export function createDueActionSweeper(options: SweeperOptions): DueActionSweeper {
  const { store, clock, handlers, log } = options;
  const leaseMs = options.leaseMs ?? 120_000;
  const pollMs = options.pollMs ?? 1_000;
  const batchSize = options.batchSize ?? 50;
  const policy = {
    maxAttempts: options.maxAttempts ?? 6,
    baseDelayMs: options.baseDelayMs ?? 5_000,
    maxDelayMs: options.maxDelayMs ?? 5 * 60_000,
  };
  const workerId = `${process.pid}.${randomUUID()}`;
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let sweeping: Promise<void> | undefined;
  let again = false;

  async function runOne(action: ClaimedAction): Promise<void> {
    const handler = handlers.get(action.kind);
    try {
      if (!handler) throw Object.assign(new Error(`no handler for ${action.kind}`), { kind: "permanent" });
      await handler(action);
      await store.complete(action.id, workerId, clock.now());
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const failure = failureOf(err);
      // A revoked grant is the person's to fix: the action waits for the reconnect, never given up.
      if (failure.kind === "reauth") {
        await store.waitForReconnect(action.id, workerId, clock.now(), message);
        return;
      }
      const decision = decideRetry(failure, action.attempts, policy);
      if (decision.retry) {
        await store.retryAt(action.id, workerId, new Date(clock.nowMs() + decision.delayMs), message);
      } else {
        log.warn({ actionId: action.id, kind: action.kind, attempts: action.attempts }, "due action failed");
        await store.fail(action.id, workerId, message);
      }
    }
  }

  async function runClaimed<A extends ClaimedAction | null>(claim: ClaimHere<A>): Promise<A> {
    const action = await claim(workerId, clock.now(), leaseMs);
    if (!action) return action;
    try {
      await runOne(action);
    } catch (err) {
      // Not marked done or failed (the database went away): the lease runs out and a sweep runs it.
      if (!isStorageEpisodeError(err))
        log.error({ error: err instanceof Error ? err.message : String(err) }, "due action run failed");
    }
    return action;
  }

  /**
   * Keeps up to `batchSize` actions running: a slot freed by one run is filled by the next claim
   * at once, rather than waiting for the slowest run of a batch (bench/jobs/due-lateness.ts).
   * Ends when nothing is due and nothing runs; the next poll starts the next sweep.
   */
  async function sweep(): Promise<void> {
    const inflight = new Set<Promise<void>>();
    let sweepError: unknown;
    const track = (action: ClaimedAction) => {
      const run: Promise<void> = runOne(action)
        .catch((err: unknown) => {
          // Marking the run failed (the database went away): the lease runs out and it is run again.
          sweepError ??= err;
        })
        .finally(() => inflight.delete(run));
      inflight.add(run);
    };
    try {
      for (;;) {
        again = false;
        const free = batchSize - inflight.size;
        const claimed = free > 0 && running ? await store.claim(workerId, clock.now(), leaseMs, free) : [];
        for (const action of claimed) track(action);
        // A full claim means more may be due now; so does a wake() meanwhile.
        const more = claimed.length === free || again;
        if (!running || (inflight.size === 0 && !more)) break;
        // Nothing more due yet: the next run to end asks again, so what falls due while some
        // runs are still going is claimed without waiting for the poll.
        if (inflight.size > 0 && (!more || inflight.size >= batchSize)) await Promise.race(inflight);
      }
    } finally {
      await Promise.all(inflight);
    }
    if (sweepError !== undefined) throw sweepError;
  }

  function schedule(delayMs: number): void {
    if (!running) return;
    clearTimeout(timer);
    timer = setTimeout(tick, delayMs);
  }

  function tick(): void {
    if (sweeping) {
      again = true;
      return;
    }
    sweeping = sweep()
      .catch((err: unknown) => {
        // A full disk or a restarting database is the storage watch's to log; the next tick retries.
        if (isStorageEpisodeError(err)) return;
        log.error({ error: err instanceof Error ? err.message : String(err) }, "due action sweep failed");
      })
      .finally(() => {
        sweeping = undefined;
        schedule(pollMs);
      });
  }

  return {
    start() {
      if (running) return;
      running = true;
      schedule(0);
    },
    wake() {
      if (running) schedule(0);
    },
    runClaimed,
    async stop() {
      running = false;
      clearTimeout(timer);
      await sweeping;
    },
  };
}
