import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { freePort } from "./free-port.ts";
import { provideTestPostgres } from "./postgres.ts";
import { postgresBinaryCandidates } from "./postgres-binaries.ts";
import { startThrowawayPostgres, sweepStaleFolders } from "./throwaway-postgres.ts";

// Starting a server runs initdb: seconds on an idle machine, much longer on a loaded one.
const START_TIMEOUT = 240_000;
const FOLDERS = path.join(os.tmpdir(), "mailwise-test-pg-");

async function query<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

async function refusesConnections(url: string): Promise<boolean> {
  try {
    await query(url, "select 1");
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ECONNREFUSED";
  }
}

interface ServerFacts {
  dir: string;
  port: string;
  version: string;
}

const FACTS = `select current_setting('data_directory') as dir, current_setting('port') as port,
  version() as version`;

describe("the PostgreSQL server of a test run", () => {
  it.concurrent(
    "is a throwaway server when nothing answers on the default address: its own port and folder, gone after stop",
    async () => {
      const closedPort = await freePort();
      const defaultUrl = `postgres://root@127.0.0.1:${closedPort}/postgres`;
      // A second server beside it, from the other binaries when there are two sources (npm, Debian).
      const candidates = postgresBinaryCandidates();
      const [provided, other] = await Promise.all([
        provideTestPostgres({ TEST_POSTGRES_DEFAULT_URL: defaultUrl }),
        startThrowawayPostgres({ binaries: candidates.slice(-1) }),
      ]);
      try {
        expect(provided.description).toContain("throwaway");
        expect(provided.description).toContain("ECONNREFUSED");
        const [a] = await query<ServerFacts>(provided.url, FACTS);
        const [b] = await query<ServerFacts>(other.url, FACTS);
        if (!a || !b) throw new Error("no facts");
        expect(a.dir.startsWith(FOLDERS)).toBe(true);
        expect(b.dir.startsWith(FOLDERS)).toBe(true);
        expect(a.dir).not.toBe(b.dir);
        expect(a.port).toBe(new URL(provided.url).port);
        expect(a.port).not.toBe(b.port);
        expect(a.port).not.toBe(String(closedPort));
        expect(a.version).toMatch(/^PostgreSQL \d+/);
        expect(b.version).toMatch(/^PostgreSQL \d+/);

        // A real server: separate backend processes per connection, and data that persists between them.
        const client = new pg.Client({ connectionString: provided.url });
        await client.connect();
        try {
          await client.query("create table t (id int primary key, note text)");
          await client.query("insert into t values (1, 'École')");
          const [row] = await query<{ note: string; pid: number }>(
            provided.url,
            "select lower(note) as note, pg_backend_pid() as pid from t",
          );
          const { rows } = await client.query<{ pid: number }>("select pg_backend_pid() as pid");
          expect(row?.note).toBe("école");
          expect(row?.pid).not.toBe(rows[0]?.pid);
        } finally {
          await client.end();
        }

        await provided.stop();
        await other.stop();
        expect(existsSync(path.dirname(a.dir))).toBe(false);
        expect(existsSync(other.folder)).toBe(false);
        expect(await refusesConnections(provided.url)).toBe(true);
        expect(await refusesConnections(other.url)).toBe(true);
      } finally {
        await provided.stop();
        await other.stop();
      }
    },
    START_TIMEOUT,
  );

  // The parent-death signal that stops an orphaned server is Linux's.
  it.runIf(process.platform === "linux").concurrent(
    "stops when the process that started it is killed, and the next start sweeps its folder",
    async () => {
      const child = spawn(process.execPath, ["--import", "tsx", "server/test/start-throwaway-postgres.ts"], {
        stdio: ["ignore", "pipe", "inherit"],
      });
      const exited = new Promise((resolve) => child.once("exit", resolve));
      try {
        const line = await new Promise<string>((resolve, reject) => {
          createInterface({ input: child.stdout }).once("line", resolve);
          child.once("exit", (code) => reject(new Error(`the starter exited with ${code}`)));
        });
        const started = JSON.parse(line) as { url: string; folder: string };
        expect(await query(started.url, "select 1 as one")).toEqual([{ one: 1 }]);

        child.kill("SIGKILL");
        await exited;
        const deadline = Date.now() + 30_000;
        while (!(await refusesConnections(started.url)) && Date.now() < deadline) await sleep(200);
        expect(await refusesConnections(started.url)).toBe(true);

        // The server is gone but its folder is still there: SIGKILL ran none of the starter's clean-up.
        expect(existsSync(started.folder)).toBe(true);
        await sweepStaleFolders();
        expect(existsSync(started.folder)).toBe(false);
      } finally {
        child.kill("SIGKILL");
      }
    },
    START_TIMEOUT,
  );

  it("is the configured TEST_POSTGRES_URL as is, even when it does not answer", async () => {
    const url = `postgres://root@127.0.0.1:${await freePort()}/postgres`;
    const provided = await provideTestPostgres({ TEST_POSTGRES_URL: url });
    expect(provided.url).toBe(url);
  });

  it("is the server at the default address when it lets us in", async () => {
    // The run's own server (the machine's, or one the global setup started) stands in for the default.
    const runServer = process.env.TEST_POSTGRES_URL;
    if (!runServer) throw new Error("the global setup sets TEST_POSTGRES_URL");
    const provided = await provideTestPostgres({ TEST_POSTGRES_DEFAULT_URL: runServer });
    expect(provided.url).toBe(runServer);
    expect(provided.description).not.toContain("throwaway");
  });
});
