import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../../server/test/free-port.ts";
import { compileServer } from "./compile-server.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
// Two cores shared with the rest of the suite: compiling plus a first PGlite initdb can be slow.
const TIMEOUT = 300_000;

/** Every file below `dir`, relative to it. */
function walk(dir: string, prefix = ""): string[] {
  return readdirSync(path.join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(prefix, entry.name);
    return entry.isDirectory() ? walk(dir, relative) : [relative];
  });
}

describe("the compiled server (npm start)", () => {
  // Inside the checkout, so the compiled modules find node_modules as dist/node does.
  const outDir = path.join(ROOT, ".tmp", `compiled-server-test-${process.pid}`);
  const dataDir = mkdtempSync(path.join(tmpdir(), "mailwise-compiled-"));
  let child: ChildProcess | undefined;

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child?.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    rmSync(outDir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    "runs without a TypeScript loader on a fresh data folder and answers /healthz and /readyz",
    async () => {
      await compileServer(ROOT, path.relative(ROOT, outDir));
      const files = walk(outDir);
      // Only JavaScript (and the data files the server reads beside its modules) is left to run.
      expect(files.filter((f) => f.endsWith(".ts"))).toEqual([]);
      expect(files).toContain("server/db/pglite-worker.js");
      expect(files).toContain("server/db/migrations/meta/_journal.json");
      expect(files.some((f) => f.startsWith("server/ai/local/rules/") && f.endsWith(".rules"))).toBe(true);
      const main = readFileSync(path.join(outDir, "server/main.js"), "utf8");
      expect(main).not.toMatch(/from "\.{1,2}\/[^"]*\.ts"/);

      const [port, emulatorPort] = [await freePort(), await freePort()];
      const base = `http://127.0.0.1:${port}`;
      // No --import tsx: a module left as TypeScript would fail to load here.
      child = spawn(process.execPath, [path.join(outDir, "server/main.js"), "--role=all"], {
        cwd: ROOT,
        env: {
          ...process.env,
          NODE_OPTIONS: "",
          PORT: String(port),
          HOST: "127.0.0.1",
          PUBLIC_URL: base,
          DATA_DIR: dataDir,
          DATABASE_URL: "",
          // Demo mode, as `npm start` on a fresh clone: the emulator is compiled too.
          DEMO_MODE: "on",
          EMULATOR_PORT: String(emulatorPort),
          LOG_LEVEL: "warn",
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      const output: string[] = [];
      for (const stream of [child.stdout, child.stderr])
        if (stream) createInterface({ input: stream }).on("line", (line) => output.push(line));

      const deadline = Date.now() + TIMEOUT - 30_000;
      let healthz = 0;
      while (Date.now() < deadline && child.exitCode === null) {
        healthz = await fetch(`${base}/healthz`).then(
          (r) => r.status,
          () => 0,
        );
        if (healthz === 200) break;
        await sleep(200);
      }
      expect(child.exitCode, output.join("\n")).toBeNull();
      expect(healthz).toBe(200);
      // /readyz queries the database, which runs in the compiled PGlite worker thread.
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
      expect(output.join("\n")).toContain(`Mailwise is running at ${base}`);
      // The first start initialised the embedded database in the data folder.
      expect(existsSync(path.join(dataDir, "pglite", "PG_VERSION"))).toBe(true);
    },
    TIMEOUT,
  );
});
