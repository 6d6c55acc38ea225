import Fastify, { type FastifyBaseLogger, type FastifyError, type FastifyInstance } from "fastify";
import { registerAdminRoutes } from "./admin.ts";
import { registerAvatarRoutes } from "./avatars.ts";
import { registerCalendarServices } from "./calendar/routes.ts";
import { type CalendarServiceOptions, createCalendarServices } from "./calendar/services.ts";
import { createClock } from "./clock.ts";
import type { EmulatorContext } from "./context.ts";
import { createEmulatorControl, type EmulatorControl } from "./control.ts";
import { graphErrorBody } from "./graph/errors.ts";
import { registerGraphMeRoutes } from "./graph/me.ts";
import { registerFormBodyParser } from "./http/fields.ts";
import { type Identity, IdentityDirectory, type IdentityInput, SEEDED_IDENTITIES } from "./identities.ts";
import { registerIndexPage } from "./index-page.ts";
import { registerMailServices } from "./mailbox/routes.ts";
import { createMailServices, type MailServiceOptions } from "./mailbox/services.ts";
import { type ClientRegistration, ClientRegistry } from "./oauth/clients.ts";
import { createFlowSealer } from "./oauth/flow.ts";
import { registerGoogleIdentityRoutes } from "./oauth/google.ts";
import { registerMicrosoftIdentityRoutes } from "./oauth/microsoft.ts";
import { createSigningKey } from "./oauth/signing.ts";
import { TokenStore } from "./oauth/tokens.ts";
import { registerOpenAiRoutes } from "./openai/plugin.ts";
import { registerWebPushRoutes } from "./webpush/routes.ts";

export type { EmulatorControl, EmulatorStateSummary } from "./control.ts";
export type { Identity, IdentityInput, Provider } from "./identities.ts";
export { MICROSOFT_CONSUMER_TENANT_ID, SEEDED_IDENTITIES } from "./identities.ts";
export type { ClientRegistration } from "./oauth/clients.ts";

export interface EmulatorOptions {
  /** OAuth clients, as registered in Google Cloud Console / Entra app registrations. */
  clients: readonly ClientRegistration[];
  /** Access-token lifetime; both providers use one hour. */
  accessTokenTtlSeconds?: number;
  /** Serve /_admin. Defaults to env EMULATOR_ADMIN=1; off otherwise. */
  admin?: boolean;
  /** A pino-compatible logger, true for Fastify's default, false/absent for silence. */
  logger?: boolean | FastifyBaseLogger;
  /**
   * The emulator's public base URL (`{EMU}`, no trailing slash). When absent, each request's own
   * scheme and Host are used, so issuers follow whatever base URL the caller was configured with.
   */
  publicUrl?: string;
  /** Extra identities besides the seeded demo ones. */
  identities?: readonly IdentityInput[];
  /** Gmail and Graph mail: corpus seeding, push URL, quota, throttling, history retention. */
  mail?: MailServiceOptions;
  /** Google Calendar and Graph calendar: seeding, Google quota, sync token lifetime. */
  calendar?: CalendarServiceOptions;
}

const controls = new WeakMap<FastifyInstance, EmulatorControl>();

/** The test controls of an emulator built by buildEmulator (same operations as /_admin). */
export function emulatorControl(app: FastifyInstance): EmulatorControl {
  const control = controls.get(app);
  if (control === undefined) throw new Error("This Fastify instance was not built by buildEmulator");
  return control;
}

/** Adds a person who can sign in (in-process equivalent of POST /_admin/identities). */
export function addIdentity(
  app: FastifyInstance,
  input: IdentityInput,
): ReturnType<EmulatorControl["addIdentity"]> {
  return emulatorControl(app).addIdentity(input);
}

/** The demo people plus the option's extras; both survive reset(), unlike identities added later. */
function seededIdentities(extra: readonly IdentityInput[]): Identity[] {
  const directory = new IdentityDirectory(SEEDED_IDENTITIES);
  for (const input of extra) directory.add(input);
  return directory.list();
}

function adminFromEnv(): boolean {
  const value = process.env.EMULATOR_ADMIN;
  return value === "1" || value === "true";
}

/**
 * Builds the emulator's Fastify instance (not listening). Every instance has its own keys,
 * clock, codes and tokens.
 */
export function buildEmulator(options: EmulatorOptions): FastifyInstance {
  const ttl = options.accessTokenTtlSeconds ?? 3600;
  if (!Number.isInteger(ttl) || ttl <= 0)
    throw new RangeError("accessTokenTtlSeconds must be a positive integer");
  const clock = createClock();
  const context: EmulatorContext = {
    clock,
    identities: new IdentityDirectory(seededIdentities(options.identities ?? [])),
    clients: new ClientRegistry(options.clients),
    tokens: new TokenStore(clock),
    flows: createFlowSealer(),
    keys: { google: createSigningKey(), microsoft: createSigningKey() },
    accessTokenTtlSeconds: ttl,
    publicUrl: options.publicUrl?.replace(/\/+$/, ""),
  };

  const common = { bodyLimit: 1024 * 1024 };
  const app: FastifyInstance =
    typeof options.logger === "object"
      ? Fastify({ ...common, loggerInstance: options.logger })
      : Fastify({ ...common, logger: options.logger ?? false });

  // listen()/ready() wait for the keys; the no-op catch only stops an early failure from being
  // reported as unhandled before anyone awaits it.
  for (const key of [context.keys.google, context.keys.microsoft]) key.catch(() => undefined);
  app.addHook("onReady", async () => {
    await Promise.all([context.keys.google, context.keys.microsoft]);
  });
  registerFormBodyParser(app);
  registerErrorHandling(app, context);
  registerIndexPage(app, context);
  registerGoogleIdentityRoutes(app, context);
  registerMicrosoftIdentityRoutes(app, context);
  registerGraphMeRoutes(app, context);
  registerAvatarRoutes(app, context);

  const control = createEmulatorControl(context);
  controls.set(app, control);
  const admin = options.admin ?? adminFromEnv();
  if (admin) registerAdminRoutes(app, control);
  const mail = createMailServices(context, options.mail);
  registerMailServices(app, mail, admin);
  registerCalendarServices(app, createCalendarServices(context, mail, options.calendar), admin);
  registerOpenAiRoutes(app, admin);
  registerWebPushRoutes(app, admin, context.publicUrl);
  return app;
}

/** Unexpected errors answer in the shape of the service whose path was called. */
function registerErrorHandling(app: FastifyInstance, context: EmulatorContext): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode !== undefined && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) request.log.error({ err: error }, "emulator error");
    const message = status >= 500 ? "Internal error in the emulator" : error.message;
    if (request.url.startsWith("/graph.microsoft.com/")) {
      return reply
        .code(status)
        .send(
          graphErrorBody(
            status >= 500 ? "generalException" : "BadRequest",
            message,
            request,
            context.clock.now(),
          ),
        );
    }
    return reply
      .code(status)
      .send({ error: status >= 500 ? "server_error" : "invalid_request", error_description: message });
  });
  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith("/graph.microsoft.com/")) {
      const segment = request.url.split("?")[0]?.split("/").pop() ?? "";
      return reply
        .code(404)
        .send(
          graphErrorBody(
            "BadRequest",
            `Resource not found for the segment '${segment}'.`,
            request,
            context.clock.now(),
          ),
        );
    }
    return reply
      .code(404)
      .send({ error: "not_found", error_description: `No route for ${request.method} ${request.url}` });
  });
}

export interface StartEmulatorOptions extends EmulatorOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Defaults to 127.0.0.1. */
  host?: string;
}

export interface RunningEmulator {
  /** The base URL `{EMU}`, e.g. http://127.0.0.1:4010. */
  url: string;
  app: FastifyInstance;
  control: EmulatorControl;
  close(): Promise<void>;
}

/** Builds and starts an emulator; used by main.ts, the app's demo mode and tests. */
export async function startEmulator(options: StartEmulatorOptions): Promise<RunningEmulator> {
  const { port = 0, host = "127.0.0.1", ...rest } = options;
  const app = buildEmulator(rest);
  await app.listen({ port, host });
  const address = app.server.address();
  const actualPort = typeof address === "object" && address !== null ? address.port : port;
  const reachableHost =
    host === "0.0.0.0" ? "127.0.0.1" : host === "::" ? "[::1]" : host.includes(":") ? `[${host}]` : host;
  return {
    url: options.publicUrl?.replace(/\/+$/, "") ?? `http://${reachableHost}:${actualPort}`,
    app,
    control: emulatorControl(app),
    close: () => app.close(),
  };
}
