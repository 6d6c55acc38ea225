import { randomUUID } from "node:crypto";
import type { Clock } from "../clock.ts";
import { MICROSOFT_CONSUMER_TENANT_ID } from "../identities.ts";
import type { FolderName } from "../mailbox/folders.ts";
import type { ChangeRecord, Mailbox } from "../mailbox/mailbox.ts";
import type { MailboxRegistry } from "../mailbox/registry.ts";
import { type DeliveryOptions, PushDelivery } from "./delivery.ts";

export type GraphChangeType = "created" | "updated" | "deleted";

export interface GraphSubscription {
  readonly id: string;
  readonly mailboxKey: string;
  readonly userId: string;
  readonly applicationId: string;
  readonly resource: string;
  /** Undefined: every folder (`me/messages`). */
  readonly folder: FolderName | undefined;
  readonly changeTypes: readonly GraphChangeType[];
  readonly notificationUrl: string;
  readonly clientState: string | undefined;
  expirationDateTime: number;
}

/** Mail subscriptions may live at most 10,080 minutes minus a margin; Graph documents ~3 days (4,230 min). */
export const MAX_MAIL_SUBSCRIPTION_MS = 4230 * 60 * 1000;

/** Why creating a subscription failed, for the route to word as Graph does. */
export class SubscriptionError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Resources Graph accepts for mail change notifications. */
export function parseMailResource(resource: string): { folder: FolderName | undefined } | undefined {
  const normalized = resource.replace(/^\/+/, "").toLowerCase();
  if (/^(me|users\/[^/]+)\/messages$/.test(normalized)) return { folder: undefined };
  const folder = /^(?:me|users\/[^/]+)\/mailfolders\(['"]?([a-z]+)['"]?\)\/messages$/.exec(normalized)?.[1];
  const wellKnown = ["inbox", "archive", "deleteditems", "junkemail", "sentitems", "drafts"];
  if (folder !== undefined && wellKnown.includes(folder)) return { folder: folder as FolderName };
  return undefined;
}

/**
 * Graph change notifications for mail: the validation handshake when a subscription is created,
 * then `{value:[{subscriptionId, clientState, changeType, resource, resourceData, ...}]}` POSTs.
 */
export class GraphSubscriptions {
  readonly delivery: PushDelivery;
  readonly #clock: Clock;
  readonly #validationTimeoutMs: number;
  readonly #subscriptions = new Map<string, GraphSubscription>();

  constructor(
    clock: Clock,
    mailboxes: MailboxRegistry,
    options: DeliveryOptions & { validationTimeoutMs: number },
  ) {
    this.#clock = clock;
    this.#validationTimeoutMs = options.validationTimeoutMs;
    this.delivery = new PushDelivery(options);
    mailboxes.onCreate((mailbox, identity) => {
      if (identity.provider !== "microsoft") return;
      mailbox.onChange((changes) => this.#changed(mailbox, changes));
    });
  }

  /** Runs the validation handshake, then stores the subscription. */
  async create(input: Omit<GraphSubscription, "id">): Promise<GraphSubscription> {
    const token = `Validation: Testing client application reachability for subscription Request-Id: ${randomUUID()}`;
    const separator = input.notificationUrl.includes("?") ? "&" : "?";
    const url = `${input.notificationUrl}${separator}validationToken=${encodeURIComponent(token)}`;
    let answer: string | undefined;
    let status: number | undefined;
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "text/plain; charset=utf-8" },
        body: "",
        signal: AbortSignal.timeout(this.#validationTimeoutMs),
      });
      status = response.status;
      answer = await response.text();
    } catch {
      status = undefined;
    }
    if (status !== 200 || answer !== token) {
      throw new SubscriptionError(
        400,
        "ValidationError",
        status === undefined
          ? "Subscription validation request failed. Notification endpoint must respond with 200 OK to validation request."
          : `Subscription validation request failed. Response must exactly match validationToken query parameter.`,
      );
    }
    const subscription: GraphSubscription = { ...input, id: randomUUID() };
    this.#subscriptions.set(subscription.id, subscription);
    return subscription;
  }

  get(id: string, mailboxKey: string): GraphSubscription | undefined {
    const subscription = this.#subscriptions.get(id);
    return subscription?.mailboxKey === mailboxKey ? subscription : undefined;
  }

  list(mailboxKey: string): GraphSubscription[] {
    return [...this.#subscriptions.values()].filter((subscription) => subscription.mailboxKey === mailboxKey);
  }

  delete(id: string, mailboxKey: string): boolean {
    if (this.get(id, mailboxKey) === undefined) return false;
    return this.#subscriptions.delete(id);
  }

  close(): void {
    this.delivery.close();
  }

  #changed(mailbox: Mailbox, changes: readonly ChangeRecord[]): void {
    const now = this.#clock.now();
    for (const subscription of this.#subscriptions.values()) {
      if (subscription.mailboxKey !== mailbox.key) continue;
      if (subscription.expirationDateTime <= now) {
        this.#subscriptions.delete(subscription.id);
        continue;
      }
      const value = changes.flatMap((change) => this.#notificationsFor(subscription, change));
      if (value.length > 0)
        this.delivery.send("graph", subscription.notificationUrl, JSON.stringify({ value }));
    }
  }

  #notificationsFor(subscription: GraphSubscription, change: ChangeRecord): object[] {
    const events: { type: GraphChangeType; id: string }[] = [];
    const { graphBefore: before, graphAfter: after } = change;
    const inScope = (folder: FolderName | undefined) =>
      folder !== undefined && (subscription.folder === undefined || subscription.folder === folder);
    // A move is a delete of the old id and a create of the new one, as Outlook reports it.
    if (before !== undefined && inScope(before.folder) && (after === undefined || after.id !== before.id)) {
      events.push({ type: "deleted", id: before.id });
    }
    if (after !== undefined && inScope(after.folder)) {
      events.push({
        type: before === undefined || before.id !== after.id ? "created" : "updated",
        id: after.id,
      });
    }
    return events
      .filter((event) => subscription.changeTypes.includes(event.type))
      .map((event) => {
        const resource = `Users/${subscription.userId}/Messages/${event.id}`;
        return {
          subscriptionId: subscription.id,
          subscriptionExpirationDateTime: new Date(subscription.expirationDateTime).toISOString(),
          changeType: event.type,
          resource,
          resourceData: {
            "@odata.type": "#Microsoft.Graph.Message",
            "@odata.id": resource,
            "@odata.etag": `W/"${change.id}"`,
            id: event.id,
          },
          clientState: subscription.clientState ?? null,
          tenantId: MICROSOFT_CONSUMER_TENANT_ID,
        };
      });
  }
}
