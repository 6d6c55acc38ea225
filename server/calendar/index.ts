import type { FastifyInstance } from "fastify";
import {
  type AccountTokenService,
  createAccountTokenService,
  type TokenRefreshLock,
} from "../auth/account-tokens.ts";
import type { AccountService } from "../auth/accounts.ts";
import type { OAuthProviders } from "../auth/oauth-clients.ts";
import type { StateStore } from "../auth/state-store.ts";
import type { TokenVault } from "../auth/token-vault.ts";
import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import type { Clock } from "../lib/clock.ts";
import type { ProviderClientFactory } from "../sync/types.ts";
import { type CalendarService, createCalendarService } from "./calendar-service.ts";
import { type CalendarConnect, createCalendarConnect } from "./connect.ts";
import { registerCalendarConnectRoutes } from "./connect-routes.ts";
import { createConnectTickets } from "./connect-tickets.ts";
import { createCalendarEventStore } from "./event-store.ts";
import { type CalendarClientFactory, calendarClientFactory } from "./factory.ts";
import { type CalendarIntegrations, createCalendarIntegrations } from "./integrations.ts";
import { createInvitationAnswers, type InvitationAnswers } from "./invitation-answers.ts";
import { registerCalendarRoutes } from "./routes.ts";
import { type CalendarSyncer, createCalendarSyncer } from "./syncer.ts";
import { calendarTokenRows } from "./token-rows.ts";

export interface CalendarServices {
  integrations: CalendarIntegrations;
  syncer: CalendarSyncer;
  calendar: CalendarService;
  tokens: AccountTokenService;
  clientFor: CalendarClientFactory;
  connect: CalendarConnect;
  answers: InvitationAnswers;
}

/** Builds the calendar services once per process (composition root: server/services.ts). */
export function createCalendarServices(deps: {
  config: Pick<Config, "providers" | "publicUrl">;
  db: Db;
  clock: Clock;
  vault: TokenVault;
  providers: OAuthProviders;
  states: StateStore;
  accounts: AccountService;
  tokenRefreshLock: TokenRefreshLock;
  /** The mailboxes' clients: an invitation is read, and answered by mail, through them. */
  providerClient: ProviderClientFactory;
  clientFor?: CalendarClientFactory;
  log?: { warn(obj: object, msg: string): void };
}): CalendarServices {
  const integrations = createCalendarIntegrations(deps.db, deps.clock, deps.vault);
  const tokens = createAccountTokenService(deps.db, deps.clock, deps.vault, deps.providers, {
    lock: deps.tokenRefreshLock,
    rows: calendarTokenRows,
  });
  const clientFor = deps.clientFor ?? calendarClientFactory({ config: deps.config, tokens });
  const store = createCalendarEventStore(deps.db);
  const syncer = createCalendarSyncer({
    clock: deps.clock,
    integrations,
    store,
    clientFor,
    ...(deps.log ? { log: deps.log } : {}),
  });
  const calendar = createCalendarService({
    clock: deps.clock,
    integrations,
    store,
    syncer,
    clientFor,
    ...(deps.log ? { log: deps.log } : {}),
  });
  const connect = createCalendarConnect({
    config: deps.config,
    providers: deps.providers,
    states: deps.states,
    tickets: createConnectTickets(deps.db, deps.clock),
    accounts: deps.accounts,
    integrations,
    clock: deps.clock,
    onConnected: ({ userId, id }) => {
      // The first full sync runs in the background; the panel shows events when it lands.
      void integrations
        .get(userId, id)
        .then((row) => (row ? syncer.sync(row) : undefined))
        .catch(() => undefined);
    },
  });
  const answers = createInvitationAnswers({
    db: deps.db,
    clock: deps.clock,
    providerClient: deps.providerClient,
    integrations,
    clientFor,
    syncer,
    ...(deps.log ? { log: deps.log } : {}),
  });
  return { integrations, syncer, calendar, tokens, clientFor, connect, answers };
}

export async function registerCalendarApi(
  app: FastifyInstance,
  services: CalendarServices,
  config: Config,
): Promise<void> {
  registerCalendarRoutes(app, services);
  await registerCalendarConnectRoutes(app, { config, connect: services.connect });
  app.addHook("onClose", () => services.syncer.idle());
}
