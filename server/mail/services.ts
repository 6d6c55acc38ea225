import { createEventBus } from "../events.ts";
import { createActionItemFinder } from "./action-item-finder.ts";
import { createInProcessRunner } from "./background.ts";
import type { MailDeps } from "./deps.ts";
import { createEmailActions } from "./email-actions.ts";
import { createEmailLister } from "./email-lister.ts";
import { createInboxZero } from "./inbox-zero.ts";
import { createInvitationReader } from "./invitations.ts";
import { createMailSender } from "./mail-sender.ts";
import { createStatsService } from "./stats-service.ts";
import { createSyncRequester } from "./sync-requester.ts";
import { createUnsubscriber, type Unsubscriber } from "./unsubscribe/unsubscriber.ts";

/**
 * Builds the mail API's services. The unsubscribe network step runs through `scheduleUnsubscribe`
 * when the composition root wires it to the job queue (UNSUBSCRIBE_JOB), else in this process.
 */
export function createMailServices(
  deps: Omit<MailDeps, "events"> & {
    events?: MailDeps["events"];
    scheduleUnsubscribe?: (requestId: string) => Promise<void>;
  },
) {
  const events = deps.events ?? createEventBus(deps.log);
  const runner = createInProcessRunner(deps.log);
  let unsubscriber: Unsubscriber | undefined;
  const schedule =
    deps.scheduleUnsubscribe ??
    (async (requestId: string) => {
      runner.run("unsubscribe", () => (unsubscriber as Unsubscriber).execute(requestId));
    });
  unsubscriber = createUnsubscriber({
    db: deps.db,
    clock: deps.clock,
    events,
    providerClient: deps.providerClient,
    allowHosts: deps.unsubscribeAllowHosts,
    schedule,
  });
  const stats = createStatsService({ ...deps, events });
  return {
    events,
    lister: createEmailLister(deps.db),
    invitations: createInvitationReader(deps),
    stats,
    actionItems: createActionItemFinder(deps.db),
    actions: createEmailActions({ ...deps, events }),
    inboxZero: createInboxZero(deps),
    sender: createMailSender({ ...deps, events }),
    unsubscriber,
    syncRequester: createSyncRequester(deps),
    /** Waits for in-process background work (tests, shutdown). */
    async idle(): Promise<void> {
      await Promise.all([runner.idle(), stats.settled()]);
    },
  };
}

export type MailServices = ReturnType<typeof createMailServices>;
