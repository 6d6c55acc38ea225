import { parseArgs } from "node:util";
import pino from "pino";
import { buildApp } from "./app.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { openDatabase } from "./db/client.ts";

type Role = "web" | "worker" | "all";

function readRole(): Role {
  const { values } = parseArgs({ options: { role: { type: "string", default: "all" } }, strict: false });
  const role = values.role;
  if (role === "web" || role === "worker" || role === "all") return role;
  throw new ConfigError(`--role must be web, worker or all (got ${String(role)})`);
}

async function main(): Promise<void> {
  const config = loadConfig();
  const role = readRole();
  const log = pino({ level: config.logLevel });
  const database = await openDatabase(config);
  log.info({ database: database.kind, role }, "database ready");

  const closers: Array<() => Promise<void>> = [];
  if (role === "web" || role === "all") {
    const app = await buildApp({ config, database });
    await app.listen({ host: config.host, port: config.port });
    log.info(`Mailwise is running at ${config.publicUrl}`);
    closers.push(() => app.close());
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
    }, 10_000);
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
  if (err instanceof ConfigError) {
    console.error(err.message);
  } else {
    console.error(err);
  }
  process.exit(1);
});
