import type { Clock } from "../clock.ts";

export interface GmailQuotaSettings {
  enabled: boolean;
  /** Gmail's per-user limit: 15,000 units a minute. */
  unitsPerMinute: number;
}

/** Gmail's published per-method costs in quota units. */
export const GMAIL_COSTS = {
  getProfile: 1,
  labelsList: 1,
  labelsGet: 1,
  labelsCreate: 5,
  historyList: 2,
  messagesList: 5,
  messagesGet: 5,
  messagesModify: 5,
  messagesTrash: 5,
  messagesDelete: 10,
  attachmentsGet: 5,
  batchModify: 50,
  messagesSend: 100,
  draftsCreate: 10,
  draftsList: 5,
  draftsGet: 5,
  draftsUpdate: 15,
  draftsDelete: 10,
  draftsSend: 100,
  threadsList: 10,
  threadsGet: 10,
  watch: 100,
  stop: 50,
} as const;

/**
 * Per-user units per clock minute. A fixed window keyed to the emulator clock keeps tests exact:
 * advancing the clock a minute refills the quota.
 */
export class GmailQuota {
  settings: GmailQuotaSettings;
  readonly #clock: Clock;
  readonly #used = new Map<string, { window: number; units: number }>();

  constructor(clock: Clock, settings: Partial<GmailQuotaSettings> = {}) {
    this.#clock = clock;
    this.settings = { enabled: settings.enabled ?? true, unitsPerMinute: settings.unitsPerMinute ?? 15_000 };
  }

  /** Spends `units` for `user`; false (and nothing spent) when the minute's budget is used up. */
  charge(user: string, units: number): boolean {
    if (!this.settings.enabled) return true;
    const window = Math.floor(this.#clock.now() / 60_000);
    const entry = this.#used.get(user);
    const used = entry?.window === window ? entry.units : 0;
    if (used + units > this.settings.unitsPerMinute) return false;
    this.#used.set(user, { window, units: used + units });
    return true;
  }

  usage(user: string): number {
    const window = Math.floor(this.#clock.now() / 60_000);
    const entry = this.#used.get(user);
    return entry?.window === window ? entry.units : 0;
  }

  reset(): void {
    this.#used.clear();
  }
}
