/**
 * Starts what the browser tests run against: the real server on a fresh embedded database, in
 * demo mode, so the provider emulator runs beside it (admin API and test hooks on).
 */
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { ensureBuilt } from "../../scripts/build/build-stamp.ts";
import { SERVER_ENTRY, serverTarget } from "../../scripts/build/targets.ts";

const port = process.env.E2E_PORT ?? "4180";
const emulatorPort = process.env.E2E_EMULATOR_PORT ?? "4290";
// One folder per port, so two stacks on one machine never share (and corrupt) a database.
const dataDir = path.resolve(`.tmp/e2e-data-${port}`);
rmSync(dataDir, { recursive: true, force: true });

// The compiled server, as `npm start` runs it (decision 0077), recompiled first if the sources
// changed; E2E_SERVER=tsx runs the TypeScript sources instead (to tell a compile problem apart).
const fromSources = process.env.E2E_SERVER === "tsx";
if (!fromSources) await ensureBuilt(process.cwd(), serverTarget(process.cwd()));
const serverArgs = fromSources ? ["--import", "tsx", "server/main.ts"] : [SERVER_ENTRY];
const child = spawn(process.execPath, [...serverArgs, "--role=all"], {
  stdio: "inherit",
  env: {
    ...process.env,
    NODE_ENV: "test",
    PORT: port,
    HOST: "127.0.0.1",
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    DEMO_MODE: "on",
    EMULATOR_PORT: emulatorPort,
    ENABLE_TEST_HOOKS: "1",
    // Every browser test signs in from 127.0.0.1; the per-IP limit is tested in the API suite.
    AUTH_RATE_LIMIT_PER_MINUTE: "10000",
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? "warn",
  },
});
const stop = () => child.kill("SIGTERM");
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
child.on("exit", (code) => process.exit(code ?? 0));
