import { AsyncLocalStorage } from "node:async_hooks";

const current = new AsyncLocalStorage<AbortSignal>();

/**
 * Runs `work` with every provider request made inside it bounded by `signal`: once it aborts, a
 * request in flight is abandoned and no retry or backoff starts. A write-back whose person is
 * waiting must not keep knocking at a provider after the answer was given up on (email-actions).
 * Carried in async context so that adapters and test wrappers need not pass it along.
 */
export function withProviderDeadline<T>(signal: AbortSignal, work: () => Promise<T>): Promise<T> {
  return current.run(signal, work);
}

/** The deadline of the surrounding withProviderDeadline, if any. */
export function providerDeadline(): AbortSignal | undefined {
  return current.getStore();
}
