import { randomBytes } from "node:crypto";
import { createEventBus } from "../events.ts";
import { createActionItemFinder } from "./action-item-finder.ts";
import { createAnalyticsService } from "./analytics-service.ts";
import { createAttachmentLinks } from "./attachments/links.ts";
import { createInProcessRunner } from "./background.ts";
import { createReadCache } from "./cache/read-cache.ts";
import { createConversations } from "./conversations/service.ts";
import type { MailDeps } from "./deps.ts";
import { createEmailActions, DEFAULT_WRITE_TIMEOUT_MS } from "./email-actions.ts";
import { createEmailLister } from "./email-lister.ts";
import { createInboxZero } from "./inbox-zero.ts";
import { createInvitationReader } from "./invitations.ts";
import { createSenderWithFiles } from "./sender-with-files.ts";
import { createStatsService } from "./stats-service.ts";
import { createSyncRequester } from "./sync-requester.ts";
import { createUnsubscriber, type Unsubscriber } from "./unsubscribe/unsubscriber.ts";
import { defaultUploadsDir } from "./uploads/upload-store.ts";
import { createWriteSettler } from "./write-settler.ts";

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
  const writeTimeoutMs = deps.writeTimeoutMs ?? DEFAULT_WRITE_TIMEOUT_MS;
  const settler = createWriteSettler({
    ...deps,
    readTimeoutMs: writeTimeoutMs,
    ...(deps.settleDelaysMs ? { delaysMs: deps.settleDelaysMs } : {}),
    onSettled: (accountId) => events.emit("emails.touched", { accountId }),
  });
  // Every sync of an account in this process ends by settling its timed-out write-backs: one sync
  // makes app and provider agree, and marks left by a crashed process heal at the next poll.
  const stopSettlingAfterSync = events.on("emails.synced", async ({ accountId }) => {
    await settler.settle(accountId);
  });
  const actions = createEmailActions({ ...deps, events, settler, writeTimeoutMs });
  /** Waits for in-process background work (tests, shutdown). */
  const idle = async (): Promise<void> => {
    await Promise.all([runner.idle(), stats.settled(), actions.idle()]);
  };
  // Without a configured key (tests, tools) links are signed per process and die with it.
  const attachmentLinks = createAttachmentLinks(deps.attachmentLinkKey ?? randomBytes(32), deps.clock);
  const { sender, attachments, uploads, drafts } = createSenderWithFiles({
    ...deps,
    events,
    links: attachmentLinks,
    uploadsDir: deps.uploadsDir ?? defaultUploadsDir(),
  });
  const readCache = createReadCache();
  return {
    events,
    /**
     * Hot read answers per person (decision 0078). Dropped by every change's event; a path that
     * changes mail without one calls `readCache.invalidateUser(userId)` before it answers.
     */
    readCache,
    drafts,
    lister: createEmailLister(deps.db, attachmentLinks),
    attachmentLinks,
    attachments,
    uploads,
    invitations: createInvitationReader(deps),
    stats,
    analytics: createAnalyticsService(deps),
    actionItems: createActionItemFinder(deps.db),
    actions,
    conversations: createConversations({ ...deps, events, actions, readCache }),
    settler,
    inboxZero: createInboxZero(deps),
    sender,
    unsubscriber,
    syncRequester: createSyncRequester(deps),
    idle,
    /** Shutdown: idle() and the end of the settle loops (their marks stay for the next sync). */
    async close(): Promise<void> {
      stopSettlingAfterSync();
      await settler.stop();
      await idle();
    },
  };
}

export type MailServices = ReturnType<typeof createMailServices>;
