import { DomainError } from "../../http/errors.ts";

/**
 * At most `max` model calls in flight per user. Interactive requests over the limit are refused
 * (429) rather than queued, so one user's burst cannot hold server sockets; background jobs wait
 * their turn.
 */
export function createUserLimiter(max: number) {
  const inFlight = new Map<string, number>();
  const waiters = new Map<string, Array<() => void>>();

  function release(userId: string): void {
    const queue = waiters.get(userId);
    const next = queue?.shift();
    if (queue && queue.length === 0) waiters.delete(userId);
    if (next) {
      next();
      return;
    }
    const n = (inFlight.get(userId) ?? 1) - 1;
    if (n <= 0) inFlight.delete(userId);
    else inFlight.set(userId, n);
  }

  return {
    async run<T>(userId: string, mode: "interactive" | "background", fn: () => Promise<T>): Promise<T> {
      const n = inFlight.get(userId) ?? 0;
      if (n >= max) {
        if (mode === "interactive") {
          throw new DomainError(
            "rate_limited",
            "Too many AI requests at once. Please wait for the running ones to finish.",
          );
        }
        // The releasing call hands its slot over directly, so the count stays put.
        await new Promise<void>((resolve) => {
          const queue = waiters.get(userId) ?? [];
          queue.push(resolve);
          waiters.set(userId, queue);
        });
      } else {
        inFlight.set(userId, n + 1);
      }
      try {
        return await fn();
      } finally {
        release(userId);
      }
    },
    inFlight: (userId: string) => inFlight.get(userId) ?? 0,
  };
}

export type UserLimiter = ReturnType<typeof createUserLimiter>;
