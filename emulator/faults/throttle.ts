import type { Clock } from "../clock.ts";

export interface GraphThrottleSettings {
  enabled: boolean;
  /** Outlook allows 4 concurrent requests per app and mailbox. */
  maxConcurrent: number;
  /** And 10,000 requests per 10 minutes per app and mailbox. */
  perTenMinutes: number;
}

export type ThrottleResult =
  | { ok: true; release: () => void }
  | { ok: false; retryAfterSeconds: number; code: "ApplicationThrottled" | "TooManyRequests" };

const TEN_MINUTES_MS = 10 * 60 * 1000;

/** Outlook's per-mailbox limits: concurrency and a request count per ten-minute window. */
export class GraphThrottle {
  settings: GraphThrottleSettings;
  readonly #clock: Clock;
  readonly #inFlight = new Map<string, number>();
  readonly #counts = new Map<string, { window: number; count: number }>();

  constructor(clock: Clock, settings: Partial<GraphThrottleSettings> = {}) {
    this.#clock = clock;
    this.settings = {
      enabled: settings.enabled ?? true,
      maxConcurrent: settings.maxConcurrent ?? 4,
      perTenMinutes: settings.perTenMinutes ?? 10_000,
    };
  }

  /** Admits one request for `mailbox`, or says how long to wait. Call release() when it ends. */
  acquire(mailbox: string): ThrottleResult {
    if (!this.settings.enabled) return { ok: true, release: () => {} };
    const now = this.#clock.now();
    const window = Math.floor(now / TEN_MINUTES_MS);
    const entry = this.#counts.get(mailbox);
    const count = entry?.window === window ? entry.count : 0;
    if (count >= this.settings.perTenMinutes) {
      const retryAfterSeconds = Math.max(1, Math.ceil(((window + 1) * TEN_MINUTES_MS - now) / 1000));
      return { ok: false, retryAfterSeconds, code: "ApplicationThrottled" };
    }
    const inFlight = this.#inFlight.get(mailbox) ?? 0;
    if (inFlight >= this.settings.maxConcurrent) {
      return { ok: false, retryAfterSeconds: 1, code: "ApplicationThrottled" };
    }
    this.#counts.set(mailbox, { window, count: count + 1 });
    this.#inFlight.set(mailbox, inFlight + 1);
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        this.#inFlight.set(mailbox, Math.max(0, (this.#inFlight.get(mailbox) ?? 1) - 1));
      },
    };
  }

  reset(): void {
    this.#inFlight.clear();
    this.#counts.clear();
  }
}
