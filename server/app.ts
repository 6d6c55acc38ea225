import zlib from "node:zlib";
import compress from "@fastify/compress";
import { eq } from "drizzle-orm";
import Fastify, { type FastifyInstance } from "fastify";
import helmet from "helmet";
import { MAIL_FRAME_SCRIPT_HASH } from "../contract/mail-frame.ts";
import { registerAiApi } from "./ai/index.ts";
import { registerAccountRoutes } from "./auth/account-routes.ts";
import { registerAuthRoutes } from "./auth/routes.ts";
import { registerTestHooks } from "./auth/test-hooks.ts";
import { registerCalendarApi } from "./calendar/index.ts";
import type { Config } from "./config.ts";
import type { Database } from "./db/client.ts";
import { mailAccounts } from "./db/schema.ts";
import { registerLiveEventsRoute } from "./events-stream/index.ts";
import { registerGameApi } from "./game/index.ts";
import { registerHealthRoutes } from "./health/routes.ts";
import { registerAuthGuard } from "./http/auth-guard.ts";
import { clientErrorHandler, frameworkErrors, registerErrorHandling } from "./http/error-handler.ts";
import { registerFairness } from "./http/fairness.ts";
import { registerInputGuard } from "./http/input-guard.ts";
import { trackInteractiveLoad } from "./http/interactive-load-hook.ts";
import { registerJsonBodies } from "./http/json-body.ts";
import { loggerOptions } from "./http/logging.ts";
import { registerSpa } from "./http/spa.ts";
import { registerDueActionRoutes } from "./jobs/due-actions/routes.ts";
import type { Clock } from "./lib/clock.ts";
import { COMPRESS_MIN_BYTES } from "./mail/cache/cached-reply.ts";
import { COMPRESSION } from "./mail/cache/read-cache.ts";
import { registerContactRoutes } from "./mail/contacts/routes.ts";
import { registerMailApi } from "./mail/index.ts";
import { registerNotificationRoutes } from "./notifications/routes.ts";
import { registerPrivacyRoutes } from "./privacy/routes.ts";
import { createServices, type Role, type Services } from "./services.ts";
import { registerSignatureRoutes } from "./signatures/routes.ts";
import { createSignatureService } from "./signatures/signature-service.ts";
import { registerWebhookRoutes } from "./webhooks/routes.ts";

export interface AppDeps {
  config: Config;
  database: Database;
  /** Defaults to the real clock; every expiry decision reads it. */
  clock?: Clock;
  /**
   * The process's services (main.ts builds them once for its role). Absent: the app builds its
   * own as a web-role process (enqueues jobs, runs none) and stops them when it closes.
   */
  services?: Services;
  /** The role of self-built services; tests that need background jobs run "all". */
  role?: Role;
}

/** Builds the Fastify instance: plugins, routes, one error handler. Does not listen. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(deps.config),
    // Fastify's types omit the hop-count form that proxy-addr accepts, so pass a trust function.
    trustProxy: (_address: string, hop: number) => hop < deps.config.trustProxyHops,
    bodyLimit: 1024 * 1024,
    // Router and HTTP-parser refusals (400, 414, 431) answer in the API's error shape too.
    frameworkErrors,
    clientErrorHandler,
  });

  // helmet's middleware built once: @fastify/helmet rebuilt it (parsing the whole CSP) on every
  // request, a few percent of a list request's CPU.
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // The email frame (a srcdoc, so it inherits this policy) runs one fixed script, by hash.
        scriptSrc: ["'self'", MAIL_FRAME_SCRIPT_HASH],
        // Radix positions popovers with inline style attributes; scripts stay strictly 'self'.
        styleSrc: ["'self'", "'unsafe-inline'"],
        // https: images only appear after the reader's "Show images": the email frame's own CSP allows
        // them only then (the srcdoc frame inherits this policy too, so both must allow a load).
        imgSrc: ["'self'", "data:", "https:"],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        frameSrc: ["'self'"],
        // The installable app (issue 38): the web app manifest and the service worker, ours only.
        manifestSrc: ["'self'"],
        workerSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    referrerPolicy: { policy: "no-referrer" },
    crossOriginEmbedderPolicy: false,
    // No COOP: the login popup returns from the provider's origin, and a browsing-context-group
    // switch would make the opener's popup.closed poll report "closed" before sign-in finishes.
    crossOriginOpenerPolicy: false,
  });
  app.addHook("onRequest", (request, reply, done) => {
    // API answers carry mail, analyses and account data: no browser or proxy keeps a copy.
    if (request.url.startsWith("/api/")) reply.header("cache-control", "no-store");
    securityHeaders(request.raw, reply.raw, (err?: unknown) => done(err instanceof Error ? err : undefined));
  });
  // Levels by measurement (decision 0078): brotli 1 and gzip 1 compress a list page as well as the
  // defaults (brotli 4, gzip 6) within 10%, for a third to a half of their CPU. Kept answers of the
  // read cache arrive already compressed with the same levels and pass through untouched.
  await app.register(compress, {
    threshold: COMPRESS_MIN_BYTES,
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: COMPRESSION.brotliQuality } },
    zlibOptions: { level: COMPRESSION.gzipLevel },
  });
  trackInteractiveLoad(app);

  closeLateIdleConnections(app);
  registerErrorHandling(app, () => deps.database.storage.status().full);
  registerJsonBodies(app);
  registerInputGuard(app);
  let services = deps.services;
  registerHealthRoutes(app, deps.database, () => services?.maintenance.status());

  if (!services) {
    const own = await createServices({
      config: deps.config,
      database: deps.database,
      role: deps.role ?? "web",
      ...(deps.clock ? { clock: deps.clock } : {}),
      log: app.log,
    });
    await own.start();
    app.addHook("onClose", () => own.stop());
    services = own;
  }
  const { auth, clock } = services;
  registerAuthGuard(app, auth.sessions, registerFairness(app, deps.config.fairness));
  await registerAuthRoutes(app, { config: deps.config, services: auth });
  registerAccountRoutes(app, auth);
  registerSignatureRoutes(app, createSignatureService(deps.database.db));
  await registerWebhookRoutes(app, {
    db: deps.database.db,
    sync: services.sync.service,
    secrets: services.pushSecrets,
  });
  registerMailApi(app, { config: deps.config, db: deps.database.db, services });
  registerAiApi(app, services.ai);
  registerGameApi(app, services.game);
  registerContactRoutes(app, services.contacts);
  await registerCalendarApi(app, services.calendar, deps.config);
  registerPrivacyRoutes(app, services.privacy);
  registerNotificationRoutes(app, services.notifications);
  if (services.live.hub) registerLiveEventsRoute(app, services.live.hub);
  registerDueActionRoutes(app, services.dueActions);
  if (deps.config.testHooks) {
    registerTestHooks(app, clock, app.requireSession, {
      async pendingFor(accountEmail) {
        const [account] = await deps.database.db
          .select({ userId: mailAccounts.userId })
          .from(mailAccounts)
          .where(eq(mailAccounts.email, accountEmail));
        return account ? services.ai.jobs.pending(account.userId) : 0;
      },
    });
  }

  await registerSpa(app, deps.config.webDistDir);
  return app;
}

/**
 * server.close() drops the connections idle at that moment only. A keep-alive connection busy
 * then (a provider's push that came in as shutdown began) turns idle a moment later and would
 * hold the close for as long as its client keeps it: such connections are dropped as they idle.
 */
function closeLateIdleConnections(app: FastifyInstance): void {
  app.addHook("preClose", (done) => {
    const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
    sweep.unref();
    app.server.once("close", () => clearInterval(sweep));
    done();
  });
}
