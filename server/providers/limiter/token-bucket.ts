/**
 * A token bucket that makes callers wait instead of overspending: `take(units)` reserves the
 * units at once (the balance may go below zero) and resolves when the balance covers them, so
 * callers are served in arrival order and nobody starves.
 */
export class TokenBucket {
  readonly capacity: number;
  readonly #refillPerMs: number;
  readonly #now: () => number;
  readonly #sleep: (ms: number) => Promise<void>;
  #tokens: number;
  #updatedAt: number;

  constructor(options: {
    capacity: number;
    refillPerMs: number;
    now?: () => number;
    sleep?: (ms: number) => Promise<void>;
  }) {
    if (!(options.capacity > 0) || !(options.refillPerMs > 0))
      throw new RangeError("capacity and refill must be positive");
    this.capacity = options.capacity;
    this.#refillPerMs = options.refillPerMs;
    this.#now = options.now ?? Date.now;
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.#tokens = options.capacity;
    this.#updatedAt = this.#now();
  }

  /** Units available right now (negative while callers are waiting). */
  get available(): number {
    this.#refill();
    return this.#tokens;
  }

  /** Waits until `units` may be spent, then spends them. Requests above capacity cost the capacity. */
  async take(units: number): Promise<void> {
    this.#refill();
    this.#tokens -= Math.min(Math.max(0, units), this.capacity);
    if (this.#tokens >= 0) return;
    await this.#sleep(Math.ceil(-this.#tokens / this.#refillPerMs));
  }

  #refill(): void {
    const now = this.#now();
    this.#tokens = Math.min(this.capacity, this.#tokens + (now - this.#updatedAt) * this.#refillPerMs);
    this.#updatedAt = now;
  }
}
