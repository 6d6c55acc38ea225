/**
 * `npm run start:cluster`: the scale-out set-up on one machine, to try it. Two web and two worker
 * processes share one PostgreSQL database (DATABASE_URL, else a throwaway server started here),
 * behind one port (PORT, default 3000) that hands each request to the next web process. In demo mode
 * the first web process runs the provider emulator (EMULATOR_PORT, default 4010) as `npm start`
 * does, and the other processes use it. Ctrl-C stops everything and deletes a throwaway database.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { loadConfig } from "../server/config.ts";
import { freePort } from "../server/test/free-port.ts";
import { startThrowawayPostgres } from "../server/test/throwaway-postgres.ts";
import { ensureBuilt } from "./build/build-stamp.ts";
import { SERVER_ENV, SERVER_NODE_FLAGS } from "./build/server-flags.mjs";
import { SERVER_ENTRY, serverTarget } from "./build/targets.ts";
import { type RunningProxy, startRoundRobinProxy } from "./cluster-proxy.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

const WEB_PROCESSES = 2;
const WORKER_PROCESSES = 2;
const READY_TIMEOUT_MS = 300_000;

interface Member {
  name: string;
  child: ChildProcess;
}

async function clusterDatabase(): Promise<{ url: string; description: string; stop(): Promise<void> }> {
  if (process.env.DATABASE_URL) {
    return { url: process.env.DATABASE_URL, description: "DATABASE_URL", stop: async () => {} };
  }
  const server = await startThrowawayPostgres();
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  await admin.query("create database mailwise").finally(() => admin.end());
  const url = new URL(server.url);
  url.pathname = "/mailwise";
  return {
    url: url.toString(),
    description: `a throwaway PostgreSQL ${server.version} on port ${url.port}, deleted at the end`,
    stop: () => server.stop(),
  };
}

/** Starts the compiled server in one role, its output prefixed with the member's name. */
function startMember(name: string, role: "web" | "worker", env: NodeJS.ProcessEnv): Member {
  const child = spawn(
    process.execPath,
    [...SERVER_NODE_FLAGS, path.join(ROOT, SERVER_ENTRY), `--role=${role}`],
    {
      env: { ...env, ...SERVER_ENV },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on("line", (line) => console.log(`[${name}] ${line}`));
  }
  return { name, child };
}

async function stopAll(members: Member[]): Promise<void> {
  await Promise.all(
    members.map(
      ({ child }) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once("exit", () => resolve());
          child.kill("SIGTERM");
        }),
    ),
  );
}

async function waitUntilReady(member: Member, url: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (member.child.exitCode !== null)
      throw new Error(`${member.name} exited with ${member.child.exitCode}`);
    const ok = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await sleep(250);
  }
  throw new Error(`${member.name} did not become ready at ${url}`);
}

async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 3000);
  const publicUrl = process.env.PUBLIC_URL ?? `http://localhost:${port}`;
  // Each process runs the compiled server (decision 0077): compile it first unless it is current,
  // as `npm start` does; run directly (as its test does), this script is then all it takes.
  await ensureBuilt(ROOT, serverTarget(ROOT));
  const database = await clusterDatabase();
  const members: Member[] = [];
  let proxy: RunningProxy | undefined;
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await proxy?.close();
    // Workers first, so none is left syncing against an emulator that web-1 took away.
    await stopAll(members.filter((m) => m.name.startsWith("worker-")));
    await stopAll(members);
    await database.stop();
    process.exit(code);
  };
  process.once("SIGINT", () => void stop(0));
  process.once("SIGTERM", () => void stop(0));

  try {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: database.url,
      // Every process must decrypt the tokens the others stored; a throwaway database needs no lasting key.
      SECRET_KEY: process.env.SECRET_KEY ?? randomBytes(32).toString("hex"),
      PUBLIC_URL: publicUrl,
      HOST: "127.0.0.1",
      TRUST_PROXY_HOPS: "1",
    };
    const config = loadConfig(env);
    const emulator = config.demo.enabled
      ? { PROVIDER_EMULATOR_URL: `http://127.0.0.1:${config.demo.emulatorPort}` }
      : {};
    const webUrls: string[] = [];
    for (let i = 1; i <= WEB_PROCESSES; i++) {
      const webPort = await freePort();
      webUrls.push(`http://127.0.0.1:${webPort}`);
      // The first web process runs the demo emulator; the rest point at it instead of starting their own.
      const member = startMember(`web-${i}`, "web", {
        ...env,
        PORT: String(webPort),
        ...(i > 1 ? emulator : {}),
      });
      members.push(member);
      // The first one migrates the database and starts the emulator before the others come up.
      if (i === 1) await waitUntilReady(member, `http://127.0.0.1:${webPort}`);
    }
    for (let i = 1; i <= WORKER_PROCESSES; i++)
      members.push(startMember(`worker-${i}`, "worker", { ...env, ...emulator }));
    await Promise.all(
      members.filter((m) => m.name.startsWith("web-")).map((m, i) => waitUntilReady(m, webUrls[i] ?? "")),
    );
    for (const member of members) {
      member.child.once("exit", (code) => {
        if (stopping) return;
        console.error(`${member.name} exited with ${code}; stopping the cluster`);
        void stop(1);
      });
    }
    proxy = await startRoundRobinProxy({ host: process.env.HOST ?? "127.0.0.1", port, upstreams: webUrls });
    console.log(
      [
        "",
        `  Mailwise cluster is running at ${publicUrl}`,
        `  ${WEB_PROCESSES} web processes (${webUrls.join(", ")}) behind it, ${WORKER_PROCESSES} worker processes`,
        `  database: ${database.description}`,
        "  Ctrl-C stops it.",
        "",
      ].join("\n"),
    );
  } catch (err) {
    console.error(err);
    await stop(1);
  }
}

await main();
