import type { Clock } from "../clock.ts";
import type { ChangeRecord, Mailbox } from "../mailbox/mailbox.ts";
import type { MailboxRegistry } from "../mailbox/registry.ts";
import { type DeliveryOptions, PushDelivery } from "./delivery.ts";

export interface GmailWatch {
  readonly topicName: string;
  readonly labelIds: readonly string[];
  readonly labelFilterBehavior: "INCLUDE" | "EXCLUDE";
  readonly expiration: number;
}

const WATCH_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/**
 * Gmail's push rate limit: "Each Gmail user being watched has a maximum notification rate of 1
 * event/sec"; Gmail drops notifications above it. The emulator holds the one over the limit to the
 * end of the second instead and sends it then, with the mailbox's latest historyId: the rate is
 * Gmail's, and the last change of a burst is still announced (against real Gmail the app's poll
 * covers a dropped one). Real time, not the emulator's clock, which tests move.
 */
export const GMAIL_PUSH_INTERVAL_MS = 1_000;
const SUBSCRIPTION = "projects/mailwise-emulator/subscriptions/gmail-push";

/**
 * Gmail's users.watch with a Pub/Sub push subscription: on every mailbox change that passes the
 * label filter, POST `{message:{data: base64(JSON{emailAddress, historyId}), messageId,
 * publishTime}, subscription}` to the push URL.
 */
export class GmailPush {
  pushUrl: string | undefined;
  readonly delivery: PushDelivery;
  readonly #clock: Clock;
  readonly #watches = new Map<string, GmailWatch>();
  /** Per mailbox: when its last push went, and the held one's timer while one waits. */
  readonly #paced = new Map<string, { sentAt: number; held?: NodeJS.Timeout }>();
  #messageId = 4_000_000_000_000_000;

  constructor(
    clock: Clock,
    mailboxes: MailboxRegistry,
    options: DeliveryOptions & { pushUrl: string | undefined },
  ) {
    this.#clock = clock;
    this.pushUrl = options.pushUrl;
    this.delivery = new PushDelivery(options);
    mailboxes.onCreate((mailbox, identity) => {
      if (identity.provider !== "google") return;
      mailbox.onChange((changes) => this.#changed(mailbox, changes));
    });
  }

  watch(mailbox: Mailbox, input: Omit<GmailWatch, "expiration">): GmailWatch {
    const watch = { ...input, expiration: this.#clock.now() + WATCH_TTL_MS };
    this.#watches.set(mailbox.key, watch);
    return watch;
  }

  stop(mailbox: Mailbox): void {
    this.#watches.delete(mailbox.key);
  }

  watchOf(mailbox: Mailbox): GmailWatch | undefined {
    return this.#watches.get(mailbox.key);
  }

  close(): void {
    for (const paced of this.#paced.values()) clearTimeout(paced.held);
    this.#paced.clear();
    this.delivery.close();
  }

  #changed(mailbox: Mailbox, changes: readonly ChangeRecord[]): void {
    const watch = this.#watches.get(mailbox.key);
    const url = this.pushUrl;
    if (watch === undefined || url === undefined) return;
    if (this.#clock.now() >= watch.expiration) {
      this.#watches.delete(mailbox.key);
      return;
    }
    if (!changes.some((change) => matches(watch, change))) return;
    const paced = this.#paced.get(mailbox.key) ?? { sentAt: Number.NEGATIVE_INFINITY };
    this.#paced.set(mailbox.key, paced);
    if (paced.held) return;
    const wait = paced.sentAt + GMAIL_PUSH_INTERVAL_MS - performance.now();
    if (wait <= 0) {
      this.#push(mailbox, url, paced);
      return;
    }
    paced.held = setTimeout(() => {
      paced.held = undefined;
      // The watch may have stopped or the push URL changed while it waited.
      const now = this.pushUrl;
      if (this.#watches.has(mailbox.key) && now !== undefined) this.#push(mailbox, now, paced);
    }, wait);
    paced.held.unref();
  }

  #push(mailbox: Mailbox, url: string, paced: { sentAt: number }): void {
    paced.sentAt = performance.now();
    this.#messageId += 1;
    const data = Buffer.from(
      JSON.stringify({ emailAddress: mailbox.email, historyId: mailbox.historyId }),
    ).toString("base64");
    const body = {
      message: {
        data,
        messageId: String(this.#messageId),
        message_id: String(this.#messageId),
        publishTime: new Date(this.#clock.now()).toISOString(),
        publish_time: new Date(this.#clock.now()).toISOString(),
      },
      subscription: SUBSCRIPTION,
    };
    this.delivery.send("gmail", url, JSON.stringify(body));
  }
}

function matches(watch: GmailWatch, change: ChangeRecord): boolean {
  if (watch.labelIds.length === 0) return true;
  const touched = [...change.labelsAfter, ...change.labelIds];
  const hit = touched.some((label) => watch.labelIds.includes(label));
  return watch.labelFilterBehavior === "EXCLUDE" ? !hit : hit;
}
