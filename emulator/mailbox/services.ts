import type { EmulatorContext } from "../context.ts";
import { FaultInjector } from "../faults/faults.ts";
import { GmailQuota, type GmailQuotaSettings } from "../faults/quota.ts";
import { GraphThrottle, type GraphThrottleSettings } from "../faults/throttle.ts";
import type { Identity } from "../identities.ts";
import { GmailPush } from "../push/gmail-push.ts";
import { GraphSubscriptions } from "../push/graph-subscriptions.ts";
import type { DemoMeetingPlanner } from "./invitation.ts";
import type { Mailbox } from "./mailbox.ts";
import { MailboxRegistry } from "./registry.ts";

export interface MailServiceOptions {
  /** Seed the demo identities from the SpamAssassin corpus (default true). */
  seedCorpus?: boolean;
  /** Where Gmail watch() notifications are POSTed, as a Pub/Sub push subscription would. */
  gmailPushUrl?: string;
  gmailQuota?: Partial<GmailQuotaSettings>;
  graphThrottle?: Partial<GraphThrottleSettings>;
  /** How long Gmail history and Graph delta state are kept (default 7 days). */
  historyRetentionMs?: number;
  /** Push delivery attempts before giving up (default 5) and the first retry delay (default 1 s). */
  pushAttempts?: number;
  pushRetryDelayMs?: number;
  /** How long Graph waits for a subscription validation answer (default 10 s). */
  graphValidationTimeoutMs?: number;
}

/** Everything the Gmail and Graph mail APIs share: mailboxes, limits, faults and push. */
export interface MailServices {
  readonly context: EmulatorContext;
  readonly mailboxes: MailboxRegistry;
  readonly quota: GmailQuota;
  readonly throttle: GraphThrottle;
  readonly faults: FaultInjector;
  readonly gmailPush: GmailPush;
  readonly graphSubscriptions: GraphSubscriptions;
  /**
   * Called for each emulator identity a sent message reaches (after it is in their mailbox), so
   * the calendar can act on iMIP replies the way Gmail and Exchange do.
   */
  readonly deliveryListeners: Set<(recipient: Identity, raw: string) => void>;
  /**
   * Set by the calendar services: the demo invitation's meeting goes in its organizer's calendar,
   * so answering it changes that calendar.
   */
  readonly demoMeetings: { planner: DemoMeetingPlanner | undefined };
  /** A per-instance secret that marks requests a batch endpoint replays internally. */
  readonly innerRequestSecret: string;
  mailboxOf(identity: Identity): Mailbox;
  close(): void;
}

export function createMailServices(context: EmulatorContext, options: MailServiceOptions = {}): MailServices {
  const demoMeetings: { planner: DemoMeetingPlanner | undefined } = { planner: undefined };
  const mailboxes = new MailboxRegistry(context.clock, {
    seedCorpus: options.seedCorpus,
    historyRetentionMs: options.historyRetentionMs,
    demoMeetings,
  });
  const delivery = { attempts: options.pushAttempts ?? 5, retryDelayMs: options.pushRetryDelayMs ?? 1000 };
  const gmailPush = new GmailPush(context.clock, mailboxes, { ...delivery, pushUrl: options.gmailPushUrl });
  const graphSubscriptions = new GraphSubscriptions(context.clock, mailboxes, {
    ...delivery,
    validationTimeoutMs: options.graphValidationTimeoutMs ?? 10_000,
  });
  return {
    context,
    mailboxes,
    quota: new GmailQuota(context.clock, options.gmailQuota),
    throttle: new GraphThrottle(context.clock, options.graphThrottle),
    faults: new FaultInjector(),
    gmailPush,
    graphSubscriptions,
    deliveryListeners: new Set(),
    demoMeetings,
    innerRequestSecret: crypto.randomUUID(),
    mailboxOf: (identity) => mailboxes.get(identity),
    close() {
      gmailPush.close();
      graphSubscriptions.close();
    },
  };
}
