/**
 * Default window: the user's writes to one account within it cost one incremental sync at its end.
 * Long enough to absorb a burst of archives, short enough that a stale page put back by a sync
 * racing a write-back (see email-actions.ts) is corrected within seconds.
 */
export const ACTION_SYNC_WINDOW_MS = 2_000;

/**
 * A trailing, per-account timer in front of requestSync for syncs asked for after a write
 * ("action"). The first request of a window arms the timer; later ones in the window cost
 * nothing (no statement, no job): the one sync at the end reads all of their changes. The timer is
 * not pushed back by later requests, so steady clicking still syncs once per window rather than
 * never. Kept in memory only: a crash loses at most one window's follow-up sync, which the
 * poller, the provider's push and the write settler make up for. State is one timer per account
 * with a write in the last window, removed when it fires.
 */
export function createActionSyncCoalescer(opts: {
  windowMs: number;
  request: (accountId: string) => Promise<void>;
  onError: (accountId: string, err: unknown) => void;
}) {
  const armed = new Map<string, NodeJS.Timeout>();
  let stopped = false;

  function fire(accountId: string): void {
    armed.delete(accountId);
    if (stopped) return;
    opts.request(accountId).catch((err: unknown) => opts.onError(accountId, err));
  }

  return {
    request(accountId: string): void {
      if (stopped || armed.has(accountId)) return;
      const timer = setTimeout(() => fire(accountId), opts.windowMs);
      // A pending follow-up sync must not keep a finished process (or test) alive.
      timer.unref();
      armed.set(accountId, timer);
    },
    /** Accounts with a follow-up sync armed (tests, diagnostics). */
    pending(): number {
      return armed.size;
    },
    /** Drops the armed timers: the database is about to close. */
    stop(): void {
      stopped = true;
      for (const timer of armed.values()) clearTimeout(timer);
      armed.clear();
    },
  };
}

export type ActionSyncCoalescer = ReturnType<typeof createActionSyncCoalescer>;
