import { DomainError } from "./errors.ts";

export interface FairnessLimits {
  /** Requests one person may have running while nobody else is active (API_USER_CONCURRENCY). */
  perUser: number;
  /** Requests one person may have running while others are active too (API_USER_SHARE). */
  contendedPerUser: number;
  /** Requests one person may have waiting beyond those; past it, 429 (API_USER_QUEUE). */
  queuePerUser: number;
  /** How long a person counts as active after their last request ended. */
  idleMs: number;
}

export const DEFAULT_FAIRNESS: FairnessLimits = {
  perUser: 48,
  contendedPerUser: 1,
  queuePerUser: 200,
  idleMs: 1_000,
};

interface Waiter {
  start: () => void;
}

interface UserState {
  running: number;
  queue: Waiter[];
  /** Set while the person has nothing running or queued: drops the state when it fires. */
  idleTimer: NodeJS.Timeout | undefined;
}

/** Releases a slot; calling it more than once is harmless. */
export type Release = () => void;

/**
 * Per-person admission for the API, so one person's flood cannot slow everyone else down.
 *
 * The server is close to serial (one event loop, one embedded database thread): a request's
 * latency grows with the number of requests running beside it. So a person alone may run
 * `perUser` requests at once (enough for a busy web app or a load test), but while anyone else is
 * active each person runs at most `contendedPerUser`: the others' requests then share the
 * server with a handful, not hundreds. What does not run waits in the person's own queue, in
 * order; past `queuePerUser` waiting, the answer is 429 with Retry-After.
 *
 * State per person lives only while they have requests running or queued, and `idleMs` after:
 * its size follows the people active in the last second, never the people ever seen.
 */
export function createFairnessGate(limits: FairnessLimits = DEFAULT_FAIRNESS) {
  const users = new Map<string, UserState>();
  /** Smoothed time a request holds its slot, for Retry-After. */
  let serviceMs = 20;

  const limitOf = (): number => (users.size > 1 ? limits.contendedPerUser : limits.perUser);

  function drain(state: UserState): void {
    const limit = limitOf();
    while (state.running < limit) {
      const next = state.queue.shift();
      if (!next) break;
      state.running += 1;
      next.start();
    }
  }

  /** Someone left or arrived: the others' limit changed, so their queues may move. */
  function drainAll(): void {
    for (const state of users.values()) if (state.queue.length > 0) drain(state);
  }

  function stateOf(userId: string): UserState {
    let state = users.get(userId);
    if (state) {
      if (state.idleTimer) {
        clearTimeout(state.idleTimer);
        state.idleTimer = undefined;
      }
      return state;
    }
    state = { running: 0, queue: [], idleTimer: undefined };
    users.set(userId, state);
    return state;
  }

  function settle(userId: string, state: UserState): void {
    if (state.running > 0 || state.queue.length > 0 || state.idleTimer) return;
    state.idleTimer = setTimeout(() => {
      if (users.get(userId) !== state || state.running > 0 || state.queue.length > 0) return;
      users.delete(userId);
      // One person fewer: whoever is left may run more at once again.
      drainAll();
    }, limits.idleMs);
    state.idleTimer.unref();
  }

  function retryAfterSeconds(state: UserState): number {
    const limit = Math.max(1, limitOf());
    // The time the person's queue takes to drain at the current pace, within a minute: a client
    // that waits longer than that has likely given up anyway.
    return Math.min(60, Math.max(1, Math.ceil((state.queue.length * serviceMs) / limit / 1000)));
  }

  return {
    /**
     * Waits for a slot of `userId`'s and resolves with its release, or throws `rate_limited` (with
     * Retry-After) when the person already has a full queue. `signal` aborts a wait (the client
     * went away); a running request is released by its caller.
     */
    async acquire(userId: string, signal?: AbortSignal): Promise<Release> {
      // A second person arriving lowers the first one's limit: their extra running requests
      // finish, and their queue waits for it (drain checks on every release).
      const state = stateOf(userId);
      let began = 0;
      let released = false;
      const release: Release = () => {
        if (released) return;
        released = true;
        serviceMs = serviceMs * 0.9 + (performance.now() - began) * 0.1;
        state.running -= 1;
        drain(state);
        settle(userId, state);
      };
      if (state.running < limitOf() && state.queue.length === 0) {
        state.running += 1;
        began = performance.now();
        return release;
      }
      if (state.queue.length >= limits.queuePerUser) {
        const wait = retryAfterSeconds(state);
        settle(userId, state);
        throw new DomainError(
          "rate_limited",
          `Too many requests at once. Try again in ${wait} second${wait === 1 ? "" : "s"}.`,
          undefined,
          wait,
        );
      }
      await new Promise<void>((resolve, reject) => {
        const waiter: Waiter = {
          start: () => {
            signal?.removeEventListener("abort", onAbort);
            began = performance.now();
            resolve();
          },
        };
        const onAbort = () => {
          const at = state.queue.indexOf(waiter);
          if (at >= 0) state.queue.splice(at, 1);
          settle(userId, state);
          reject(new DomainError("request_timeout", "The request was cancelled while it waited."));
        };
        if (signal?.aborted) return onAbort();
        signal?.addEventListener("abort", onAbort, { once: true });
        state.queue.push(waiter);
      });
      return release;
    },

    /** People with state kept (running, queued or idle for less than idleMs): tests, diagnostics. */
    trackedUsers(): number {
      return users.size;
    },
  };
}

export type FairnessGate = ReturnType<typeof createFairnessGate>;
