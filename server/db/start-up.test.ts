import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { freePort } from "../test/free-port.ts";
import { testPostgresAdminUrl } from "../test/postgres.ts";
import { TEST_SECRET_KEY } from "../test/server.ts";

interface Run {
  code: number | null;
  output: string;
}

/** Starts `server/main.ts --role=web` with env; resolves when it exits or prints `until`. */
function startServer(env: Record<string, string>, until?: RegExp, onOutput?: (output: string) => void) {
  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts", "--role=web"], {
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "test",
      LOG_LEVEL: "warn",
      SECRET_KEY: TEST_SECRET_KEY,
      DEMO_MODE: "off",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  return new Promise<Run>((resolve) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      onOutput?.(output);
      if (until?.test(output)) child.kill("SIGTERM");
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => resolve({ code, output }));
  });
}

describe("start-up when the database is not there", () => {
  it.concurrent("a closed PostgreSQL port: names DATABASE_URL and what was tried, retries, no stack trace", async () => {
    const port = await freePort();
    const started = Date.now();
    const run = await startServer({
      PORT: String(await freePort()),
      DATABASE_URL: `postgres://mailwise:hunter2@127.0.0.1:${port}/mailwise`,
      DATABASE_START_TIMEOUT_SECONDS: "2",
    });
    expect(run.code).toBe(1);
    expect(run.output).toContain("DATABASE_URL=postgres://mailwise:***@127.0.0.1:");
    expect(run.output).toContain(`127.0.0.1:${port}, database mailwise`);
    expect(run.output).toMatch(/ECONNREFUSED/);
    expect(run.output).toMatch(/tried [3-9] times over [12]\.\d s/);
    expect(run.output).not.toContain("hunter2");
    expect(run.output).not.toMatch(/\n\s+at /);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_500);
  }, 30_000);

  it.concurrent("a database that appears while it waits: the server starts once it is created", async () => {
    const name = `mailwise_late_${randomBytes(4).toString("hex")}`;
    const adminUrl = testPostgresAdminUrl();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      const port = await freePort();
      // Created once the server said it is waiting for it.
      let creating: Promise<unknown> | undefined;
      const run = await startServer(
        { PORT: String(port), DATABASE_URL: url.toString(), DATABASE_START_TIMEOUT_SECONDS: "30" },
        /Mailwise is running/,
        (output) => {
          if (!creating && output.includes("trying again")) creating = admin.query(`create database ${name}`);
        },
      );
      await creating;
      expect(run.output).toMatch(new RegExp(`database \\\\"?${name}\\\\"? does not exist.*trying again`));
      expect(run.output).toContain("Mailwise is running");
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
      await admin.end();
    }
  }, 45_000);

  it.concurrent("an embedded folder that cannot be created: names DATA_DIR and the reason", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "mailwise-startup-"));
    try {
      // A file where the folder should be.
      const { writeFile } = await import("node:fs/promises");
      await writeFile(path.join(dir, "data"), "not a folder");
      const run = await startServer({
        PORT: String(await freePort()),
        DATA_DIR: path.join(dir, "data"),
        DATABASE_START_TIMEOUT_SECONDS: "1",
      });
      expect(run.code).toBe(1);
      expect(run.output).toContain(`DATA_DIR (${path.join(dir, "data")}`);
      expect(run.output).toMatch(/EEXIST|ENOTDIR/);
      expect(run.output).not.toMatch(/\n\s+at /);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
