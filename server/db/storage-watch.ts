import { isStorageFullError } from "./storage-errors.ts";

/** Whether the database can write, for /readyz and the HTTP error handler. */
export type StorageStatus = { full: false } | { full: true; since: Date };

export interface StorageLog {
  error(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface StorageWatch {
  /** Tells the watch about a failed statement; true when it was a full disk (an episode is on). */
  report(err: unknown): boolean;
  status(): StorageStatus;
  /** Called once each time an episode ends; returns a function that unsubscribes. */
  onRecovered(listener: () => void): () => void;
  close(): void;
}

export interface StorageWatchOptions {
  log: StorageLog;
  /**
   * Resolves once the database can write again (a small real write went through, and for the
   * embedded database enough free space and a live thread); throws while it cannot yet.
   */
  probe: () => Promise<void>;
  /** First wait between probes; it doubles up to maxProbeIntervalMs. */
  probeIntervalMs?: number;
  maxProbeIntervalMs?: number;
  /** A probe that takes longer than this counts as failed (a hung database must not stop the watch). */
  probeTimeoutMs?: number;
}

/**
 * A full disk is an episode: it starts with the first statement that fails for want of space
 * (logged once, as an error), lasts while probes fail, and ends when a probe writes again (logged
 * once, as info, and told to onRecovered listeners so work waiting on it resumes at once).
 * Probes back off to a few seconds: each one writes a little WAL, which on a disk that stays full
 * must not grow into a new WAL segment the server cannot create.
 */
export function createStorageWatch(options: StorageWatchOptions): StorageWatch {
  const firstDelay = options.probeIntervalMs ?? 500;
  const maxDelay = options.maxProbeIntervalMs ?? 5_000;
  const probeTimeout = options.probeTimeoutMs ?? 10_000;
  const listeners = new Set<() => void>();
  let since: Date | undefined;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  function schedule(delayMs: number): void {
    if (closed) return;
    timer = setTimeout(() => void probe(delayMs), delayMs);
    timer.unref();
  }

  async function probe(lastDelayMs: number): Promise<void> {
    let guard: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        options.probe(),
        new Promise<never>((_, reject) => {
          guard = setTimeout(() => reject(new Error("storage probe timed out")), probeTimeout);
        }),
      ]);
    } catch {
      schedule(Math.min(maxDelay, lastDelayMs * 2));
      return;
    } finally {
      clearTimeout(guard);
    }
    if (closed || !since) return;
    const seconds = Math.round((Date.now() - since.getTime()) / 100) / 10;
    since = undefined;
    options.log.info({ seconds }, "database storage is writable again; the app has resumed");
    for (const listener of listeners) {
      try {
        listener();
      } catch {
        // A listener's trouble is its own; the others still run.
      }
    }
  }

  return {
    report(err) {
      if (!isStorageFullError(err)) return false;
      if (since || closed) return true;
      since = new Date();
      options.log.error(
        { reason: err instanceof Error ? err.message : String(err) },
        "database storage is full: writes fail and the API answers 503 storage_full until space is freed",
      );
      schedule(firstDelay);
      return true;
    },
    status: () => (since ? { full: true, since } : { full: false }),
    onRecovered(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      closed = true;
      clearTimeout(timer);
    },
  };
}
