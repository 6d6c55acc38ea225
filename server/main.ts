import { parseArgs } from "node:util";
import pino from "pino";
import { loadAnalyzerModels, ModelFileError } from "./ai/local/models/load.ts";
import { RuleTableError } from "./ai/local/rules/rule-table.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { DatabaseStartError, openDatabase } from "./db/client.ts";
import { restrictDataDir } from "./db/data-dir-permissions.ts";
import { limitHeapGrowth } from "./lib/heap-growth.ts";
import type { Role } from "./services.ts";

function readRole(): Role {
  const { values } = parseArgs({ options: { role: { type: "string", default: "all" } }, strict: false });
  const role = values.role;
  if (role === "web" || role === "worker" || role === "all") return role;
  throw new ConfigError(`--role must be web, worker or all (got ${String(role)})`);
}

async function main(): Promise<void> {
  limitHeapGrowth();
  // The analyzer reads its rule tables as its modules load and its models just after: loaded here,
  // inside main's catch rather than as static imports, a bad file stops the start with its message.
  const [{ buildApp }, { createServices }, { notificationUrl }] = await Promise.all([
    import("./app.ts"),
    import("./services.ts"),
    import("./sync/watch-renewer.ts"),
  ]);
  loadAnalyzerModels();
  const config = loadConfig();
  const role = readRole();
  const log = pino({ level: config.logLevel });
  // Everything this process creates (database files, the secret key) is readable by its user only.
  process.umask(0o077);
  const restricted = await restrictDataDir(config.dataDir).catch((err: unknown) => {
    const reason = err instanceof Error ? err.message : String(err);
    throw new DatabaseStartError(`Could not prepare DATA_DIR (${config.dataDir}): ${reason}`);
  });
  if (restricted > 0) {
    log.warn(
      { dataDir: config.dataDir, changed: restricted },
      "DATA_DIR was readable by other users: folders set to 0700 and files to owner-only",
    );
  }
  const database = await openDatabase(config, {
    startTimeoutMs: config.databaseStartTimeoutMs,
    onRetry: (message) => log.warn(message),
    log,
  });
  log.info({ database: database.kind, role }, "database ready");

  const closers: Array<() => Promise<void>> = [];
  // One set of services per process: web enqueues jobs, worker runs them and the sync poller.
  const services = await createServices({ config, database, role, log });
  // Demo mode runs the emulator in this process unless PROVIDER_EMULATOR_URL points at another one.
  if (config.demo.enabled && !process.env.PROVIDER_EMULATOR_URL && role !== "worker") {
    const { startDemoEmulator } = await import("./demo/start-emulator.ts");
    const { emulator, banner } = await startDemoEmulator(config, {
      // Pub/Sub's push subscription, which the emulator plays: where Gmail changes are POSTed.
      gmailPushUrl: notificationUrl(config.publicUrl, "gmail", services.pushSecrets),
    });
    closers.push(() => emulator.close());
    console.log(banner);
  }
  await services.start();
  // Stop polling and let running jobs finish before the database closes.
  closers.push(() => services.stop());
  // A worker serves no HTTP: this line is how an operator (or a test) sees it is working.
  if (role === "worker")
    log.info({ role, pid: process.pid }, "worker started: running jobs and the sync poller");
  if (role === "web" || role === "all") {
    const app = await buildApp({ config, database, services });
    await app.listen({ host: config.host, port: config.port });
    log.info(`Mailwise is running at ${config.publicUrl}`);
    console.log(`\n  Mailwise is running at ${config.publicUrl}\n`);
    // Close the HTTP server first so in-flight requests finish before the database goes away.
    closers.unshift(() => app.close());
  }
  closers.push(() => database.close());

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "shutting down");
    const timer = setTimeout(() => {
      log.error("shutdown took too long; exiting");
      process.exit(1);
    }, 35_000);
    timer.unref();
    for (const close of closers) {
      await close().catch((err: unknown) => log.error({ err }, "error while closing"));
    }
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

main().catch((err: unknown) => {
  if (
    err instanceof ConfigError ||
    err instanceof DatabaseStartError ||
    err instanceof ModelFileError ||
    err instanceof RuleTableError
  ) {
    console.error(err.message);
  } else {
    console.error(err);
  }
  process.exit(1);
});
