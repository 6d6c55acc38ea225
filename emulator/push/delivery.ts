/** One push attempt's outcome, kept for the admin API and tests. */
export interface DeliveryRecord {
  readonly kind: "gmail" | "graph" | "graph-validation";
  readonly url: string;
  readonly body: string;
  attempts: number;
  status: number | undefined;
  error: string | undefined;
  delivered: boolean;
}

export interface DeliveryOptions {
  attempts: number;
  retryDelayMs: number;
}

const MAX_LOG = 500;

/**
 * POSTs push notifications and retries politely (exponential backoff) on errors and non-2xx
 * answers, as Pub/Sub and Graph do. Timers are tracked so close() stops pending retries.
 */
export class PushDelivery {
  readonly log: DeliveryRecord[] = [];
  readonly #options: DeliveryOptions;
  readonly #timers = new Set<NodeJS.Timeout>();
  #closed = false;

  constructor(options: DeliveryOptions) {
    this.#options = options;
  }

  send(kind: DeliveryRecord["kind"], url: string, body: string): DeliveryRecord {
    const record: DeliveryRecord = {
      kind,
      url,
      body,
      attempts: 0,
      status: undefined,
      error: undefined,
      delivered: false,
    };
    this.log.push(record);
    if (this.log.length > MAX_LOG) this.log.splice(0, this.log.length - MAX_LOG);
    void this.#attempt(record);
    return record;
  }

  async #attempt(record: DeliveryRecord): Promise<void> {
    if (this.#closed) return;
    record.attempts += 1;
    try {
      const response = await fetch(record.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: record.body,
        signal: AbortSignal.timeout(10_000),
      });
      record.status = response.status;
      await response.arrayBuffer().catch(() => undefined);
      if (response.ok) {
        record.delivered = true;
        record.error = undefined;
        return;
      }
      record.error = `HTTP ${response.status}`;
    } catch (error) {
      record.error = error instanceof Error ? error.message : String(error);
    }
    if (record.attempts >= this.#options.attempts || this.#closed) return;
    const delay = this.#options.retryDelayMs * 2 ** (record.attempts - 1);
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      void this.#attempt(record);
    }, delay);
    timer.unref();
    this.#timers.add(timer);
  }

  close(): void {
    this.#closed = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
  }
}
