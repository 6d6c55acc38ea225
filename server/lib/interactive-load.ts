import { setTimeout as sleep } from "node:timers/promises";

/** Requests started within this window tell whether someone is using the API right now. */
const WINDOW_MS = 1_000;
/**
 * At this many API requests a second the API counts as busy. A client polling sync progress
 * (1-2 a second) does not make it busy; someone paging through mail, or a script, does.
 */
export const BUSY_REQUESTS_PER_SECOND = 10;
/** While the API is busy, background steps start at most this often (all of them together). */
export const BUSY_STEP_SPACING_MS = 1_000;
/** A background step never waits longer than this, so background work always progresses. */
const MAX_WAIT_MS = 3_000;

export interface InteractiveLoad {
  /** Counts one interactive request from now; call the returned function when it is answered. */
  begin(): () => void;
  /** Whether interactive requests are coming in fast enough that background work should pace itself. */
  busy(): boolean;
  /**
   * Awaited by background work (sync pages, analysis batches) before each database step: at
   * once when the API is quiet; while it is busy, after the last step by BUSY_STEP_SPACING_MS and
   * when no request is in flight (at most MAX_WAIT_MS in all).
   */
  turn(): Promise<void>;
}

/**
 * Interactive requests and background work share one event loop and, on PGlite, one database
 * thread that runs statements one at a time: a sync transaction in progress holds up every list
 * query behind it. Background work cannot be pre-empted, so it yields between steps instead
 * (decision 0081).
 */
export function createInteractiveLoad(now: () => number = () => performance.now()): InteractiveLoad {
  let inFlight = 0;
  /** Start times of recent requests, oldest first (bounded by the busy rate: only a count is needed). */
  const starts: number[] = [];
  let lastStep = Number.NEGATIVE_INFINITY;
  let idleWaiters: Array<() => void> = [];

  const recent = (t: number) => {
    while (starts.length > 0 && (starts[0] ?? 0) < t - WINDOW_MS) starts.shift();
    return starts.length;
  };
  const busy = () => recent(now()) >= BUSY_REQUESTS_PER_SECOND;

  return {
    begin() {
      inFlight++;
      starts.push(now());
      // Only "at least the busy rate" matters: older entries beyond it need not be kept.
      if (starts.length > BUSY_REQUESTS_PER_SECOND * 4)
        starts.splice(0, starts.length - BUSY_REQUESTS_PER_SECOND);
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        inFlight--;
        if (inFlight === 0) {
          const waiters = idleWaiters;
          idleWaiters = [];
          for (const wake of waiters) wake();
        }
      };
    },
    busy,
    async turn() {
      const started = now();
      for (;;) {
        const t = now();
        if (!busy() || t - started >= MAX_WAIT_MS) break;
        const spacing = lastStep + BUSY_STEP_SPACING_MS - t;
        if (spacing > 0) {
          await sleep(Math.min(spacing, MAX_WAIT_MS - (t - started)), undefined, { ref: false });
          continue;
        }
        if (inFlight === 0) break;
        // In the gap after the request in flight: the step then delays at most the next one.
        await Promise.race([
          new Promise<void>((resolve) => idleWaiters.push(resolve)),
          sleep(MAX_WAIT_MS - (t - started), undefined, { ref: false }),
        ]);
      }
      lastStep = now();
    },
  };
}

/** The process's one measure: the HTTP layer feeds it, sync and analysis ask it. */
export const interactiveLoad: InteractiveLoad = createInteractiveLoad();

/** Requests that are someone waiting for an answer (not the live stream, provider pushes or test hooks). */
export function isInteractive(url: string): boolean {
  return (
    url.startsWith("/api/") &&
    !url.startsWith("/api/events") &&
    !url.startsWith("/api/webhooks/") &&
    !url.startsWith("/api/_test/")
  );
}
