import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import type { EventBus } from "../events.ts";
import type { Clock } from "../lib/clock.ts";
import { createNotifier, type Notifier } from "./notifier.ts";
import { createPushSender } from "./push-sender.ts";
import { createNotificationSettingsStore, type NotificationSettingsStore } from "./settings-store.ts";
import { createSubscriptionStore, type SubscriptionStore } from "./subscription-store.ts";
import { loadVapidKeys } from "./vapid-keys.ts";

export interface NotificationServices {
  settings: NotificationSettingsStore;
  subscriptions: SubscriptionStore;
  notifier: Notifier;
  /** The VAPID public key browsers subscribe with. */
  vapidPublicKey: string;
}

/** Notifications (issue 38, decision 0075): the setting, push subscriptions and the notifier. */
export async function createNotificationServices(deps: {
  config: Pick<Config, "dataDir" | "notifications">;
  db: Db;
  clock: Clock;
  events: EventBus;
  vipOf: (userId: string) => Promise<(address: string) => boolean>;
  log: { warn(obj: object, msg: string): void };
}): Promise<NotificationServices> {
  const vapid = await loadVapidKeys(deps.config);
  const allowHosts = deps.config.notifications.pushAllowHosts;
  const settings = createNotificationSettingsStore({ db: deps.db, clock: deps.clock });
  const subscriptions = createSubscriptionStore({ db: deps.db, clock: deps.clock, allowHosts });
  const sender = createPushSender({ vapid, subject: deps.config.notifications.vapidSubject, allowHosts });
  const notifier = createNotifier({
    db: deps.db,
    clock: deps.clock,
    events: deps.events,
    settings,
    subscriptions,
    sender,
    vipOf: deps.vipOf,
    log: deps.log,
  });
  return { settings, subscriptions, notifier, vapidPublicKey: vapid.publicKey };
}
