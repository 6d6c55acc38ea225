import type { FastifyInstance } from "fastify";
import type { AccountTokenService } from "../auth/account-tokens.ts";
import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import type { EventBus } from "../events.ts";
import type { Clock } from "../lib/clock.ts";
import { createMailProviderClient } from "../providers/factory.ts";
import type { ProviderClientFactory } from "../sync/types.ts";
import { keepReadCacheFresh, type NoticeFeed } from "./cache/invalidation.ts";
import { registerConversationRoutes } from "./conversations/routes.ts";
import type { MailSync } from "./deps.ts";
import type { Outbox } from "./outbox/outbox-service.ts";
import { registerOutboxRoutes } from "./outbox/routes.ts";
import { registerMailRoutes } from "./routes.ts";
import { createMailServices, type MailServices } from "./services.ts";
import { registerSnoozeRoutes } from "./snooze/routes.ts";
import type { Snoozer } from "./snooze/snooze-service.ts";
import { uploadsDirOf } from "./uploads/upload-store.ts";

/** What the mail API takes from the process's services (server/services.ts), structurally. */
export interface MailApiServices {
  clock: Clock;
  auth: { accountTokens: Pick<AccountTokenService, "getAccessToken"> };
  sync: { service: MailSync };
  clientFor?: ProviderClientFactory;
  events?: EventBus;
  scheduleUnsubscribe?: (requestId: string) => Promise<void>;
  /** Signs attachment links; a random key per process when absent (links then die with it). */
  attachmentLinkKey?: Buffer;
  /** Held mail (Undo send); without it POST /api/emails/send sends at once. */
  outbox?: Outbox;
  /** Snooze (issue 37); without it the snooze routes are absent. */
  snoozer?: Snoozer;
  /** Notices of every process: the read cache drops what another process changed. */
  live?: NoticeFeed;
}

/** Builds the mail services and registers /api/emails/*; returns the services (tests wait on idle()). */
export function registerMailApi(
  app: FastifyInstance,
  deps: { config: Config; db: Db; services: MailApiServices },
): MailServices {
  const { config, services } = deps;
  const providerClient: ProviderClientFactory =
    services.clientFor ??
    ((account) => createMailProviderClient({ account, config, accountTokens: services.auth.accountTokens }));
  const mail = createMailServices({
    db: deps.db,
    clock: services.clock,
    providerClient,
    sync: services.sync.service,
    unsubscribeAllowHosts: config.unsubscribeAllowHosts,
    writeTimeoutMs: config.providerWriteTimeoutMs,
    attachmentOpenTimeoutMs: config.attachmentOpenTimeoutMs,
    uploadsDir: uploadsDirOf(config),
    log: app.log,
    ...(services.events ? { events: services.events } : {}),
    ...(services.scheduleUnsubscribe ? { scheduleUnsubscribe: services.scheduleUnsubscribe } : {}),
    ...(services.attachmentLinkKey ? { attachmentLinkKey: services.attachmentLinkKey } : {}),
  });
  // Before any route below: the write hook must see every mail write of this process.
  const stopFreshness = keepReadCacheFresh({
    app,
    cache: mail.readCache,
    db: deps.db,
    events: mail.events,
    ...(services.live ? { live: services.live } : {}),
  });
  app.addHook("onClose", async () => stopFreshness());
  registerMailRoutes(app, mail, services.outbox);
  if (services.outbox) registerOutboxRoutes(app, services.outbox);
  registerConversationRoutes(app, mail.conversations);
  if (services.snoozer) registerSnoozeRoutes(app, services.snoozer);
  app.decorate("mail", mail);
  app.addHook("onClose", () => mail.close());
  return mail;
}

declare module "fastify" {
  interface FastifyInstance {
    /** The mail services; tests reach idle() through it. */
    mail: MailServices;
  }
}
