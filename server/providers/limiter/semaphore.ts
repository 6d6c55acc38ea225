/** A counting semaphore with FIFO waiters; a caller may take several permits at once. */
export class Semaphore {
  readonly permits: number;
  #free: number;
  readonly #waiting: { weight: number; wake: () => void }[] = [];

  constructor(permits: number) {
    if (!Number.isInteger(permits) || permits < 1) throw new RangeError("permits must be a positive integer");
    this.permits = permits;
    this.#free = permits;
  }

  get inUse(): number {
    return this.permits - this.#free;
  }

  /** Resolves with a release function once `weight` permits (capped at all of them) are held. */
  async acquire(weight = 1): Promise<() => void> {
    const need = Math.min(Math.max(1, weight), this.permits);
    if (this.#waiting.length === 0 && this.#free >= need) {
      this.#free -= need;
    } else {
      await new Promise<void>((wake) => this.#waiting.push({ weight: need, wake }));
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#free += need;
      this.#drain();
    };
  }

  /** Runs `task` while holding `weight` permits. */
  async run<T>(weight: number, task: () => Promise<T>): Promise<T> {
    const release = await this.acquire(weight);
    try {
      return await task();
    } finally {
      release();
    }
  }

  #drain(): void {
    // Strict FIFO: a heavy waiter at the head is not overtaken by light ones behind it.
    for (
      let head = this.#waiting[0];
      head !== undefined && head.weight <= this.#free;
      head = this.#waiting[0]
    ) {
      this.#waiting.shift();
      this.#free -= head.weight;
      head.wake();
    }
  }
}
