import type { Db } from "../../db/client.ts";
import type { EventBus } from "../../events.ts";
import type { JobQueue } from "../../jobs/queue.ts";
import type { Clock } from "../../lib/clock.ts";
import type { ProviderClientFactory } from "../../sync/types.ts";
import { createUnsubscriber, UNSUBSCRIBE_JOB, unsubscribeJobSchema } from "./unsubscriber.ts";

/**
 * Runs the unsubscribe network step as a durable job (worker role) instead of in the web
 * process. The composition root calls this before the queue starts and hands
 * `scheduleUnsubscribe` to the mail API. One attempt only: a one-click POST or a mailto must not
 * be repeated blindly, and the status already tells the user what happened.
 */
export function defineUnsubscribeJob(
  queue: JobQueue,
  deps: {
    db: Db;
    clock: Clock;
    events: EventBus;
    providerClient: ProviderClientFactory;
    allowHosts: readonly string[];
  },
): { scheduleUnsubscribe: (requestId: string) => Promise<void> } {
  const worker = createUnsubscriber({
    ...deps,
    schedule: async () => {
      throw new Error("the unsubscribe job does not schedule further work");
    },
  });
  queue.define({
    name: UNSUBSCRIBE_JOB,
    schema: unsubscribeJobSchema,
    maxAttempts: 1,
    handler: (data) => worker.execute(data.requestId),
  });
  return {
    async scheduleUnsubscribe(requestId) {
      await queue.send(UNSUBSCRIBE_JOB, { requestId }, { singletonKey: requestId });
    },
  };
}
