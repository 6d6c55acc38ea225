import type { FastifyReply, FastifyRequest } from "fastify";
import type { Provider } from "../identities.ts";
import { seededRandom } from "../mailbox/random.ts";

export interface FaultSettings {
  /** Added delay before every mail API request is handled. */
  latencyMs: number;
  /** Share of requests (0..1) answered with a provider-shaped 503. */
  errorRate: number;
  /** Share of requests (0..1) whose connection is closed without an answer. */
  dropRate: number;
  /** Limit the faults to one provider's APIs; both when undefined. */
  provider: Provider | undefined;
}

export const NO_FAULTS: FaultSettings = { latencyMs: 0, errorRate: 0, dropRate: 0, provider: undefined };

export type FaultOutcome = "pass" | "error" | "drop";

/**
 * Injected trouble for resilience tests: latency, 5xx answers and dropped connections. The dice
 * are seeded, so a failing run can be repeated.
 */
export class FaultInjector {
  settings: FaultSettings = { ...NO_FAULTS };
  #random = seededRandom(1);
  /**
   * Method and path of each request waiting out the injected latency now: a test can act (kill a
   * client) while a given call is known to be in flight at the provider.
   */
  readonly delayed = new Map<symbol, string>();

  set(settings: Partial<FaultSettings>): FaultSettings {
    this.settings = { ...this.settings, ...settings };
    this.#random = seededRandom(1);
    return this.settings;
  }

  reset(): void {
    this.set(NO_FAULTS);
  }

  async apply(provider: Provider, request: FastifyRequest, reply: FastifyReply): Promise<FaultOutcome> {
    const { settings } = this;
    if (settings.provider !== undefined && settings.provider !== provider) return "pass";
    if (settings.latencyMs > 0) {
      const key = Symbol();
      this.delayed.set(key, `${request.method} ${request.url.split("?")[0]}`);
      try {
        await new Promise((resolve) => setTimeout(resolve, settings.latencyMs));
      } finally {
        this.delayed.delete(key);
      }
    }
    if (settings.dropRate > 0 && this.#random() < settings.dropRate) {
      // A reset connection, as a flaky network or a crashed front end gives.
      request.raw.socket?.destroy();
      reply.hijack();
      return "drop";
    }
    if (settings.errorRate > 0 && this.#random() < settings.errorRate) return "error";
    return "pass";
  }
}
