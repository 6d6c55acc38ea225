import { randomBytes } from "node:crypto";
import pg from "pg";
import { startThrowawayPostgres } from "./throwaway-postgres.ts";

/** The address tried when TEST_POSTGRES_URL is unset: the server every machine here runs. */
export const DEFAULT_TEST_POSTGRES_URL = "postgres://root@127.0.0.1:5432/postgres";

/**
 * The server tests make their throwaway databases on. The test run's global setup settles it once
 * (see provideTestPostgres) and hands it to every worker in TEST_POSTGRES_URL.
 */
export function testPostgresAdminUrl(): string {
  return process.env.TEST_POSTGRES_URL ?? process.env.TEST_POSTGRES_DEFAULT_URL ?? DEFAULT_TEST_POSTGRES_URL;
}

export interface TestPostgres {
  url: string;
  /** Which server this is and why, for the run's log (no password). */
  description: string;
  /** Stops the server if this run started it. */
  stop(): Promise<void>;
}

/**
 * Settles the PostgreSQL server for one test run: TEST_POSTGRES_URL when set (used as is, so a
 * wrong one fails loudly); otherwise the default address (TEST_POSTGRES_DEFAULT_URL, else
 * 127.0.0.1:5432) when a server there lets us in; otherwise a throwaway server started for the run.
 */
export async function provideTestPostgres(env: NodeJS.ProcessEnv = process.env): Promise<TestPostgres> {
  const noop = async () => {};
  if (env.TEST_POSTGRES_URL) {
    return {
      url: env.TEST_POSTGRES_URL,
      description: `TEST_POSTGRES_URL (${redact(env.TEST_POSTGRES_URL)})`,
      stop: noop,
    };
  }
  const defaultUrl = env.TEST_POSTGRES_DEFAULT_URL ?? DEFAULT_TEST_POSTGRES_URL;
  const problem = await connectionProblem(defaultUrl);
  if (!problem) return { url: defaultUrl, description: `the server at ${redact(defaultUrl)}`, stop: noop };
  const server = await startThrowawayPostgres();
  return {
    url: server.url,
    description:
      `a throwaway PostgreSQL ${server.version} (${server.binaries.source}) at ${redact(server.url)}, ` +
      `since ${redact(defaultUrl)} did not let us in (${problem})`,
    stop: () => server.stop(),
  };
}

/** Why the server at url cannot be used, or undefined when it can. */
async function connectionProblem(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  client.on("error", () => undefined);
  try {
    await client.connect();
    await client.query("select 1");
    return undefined;
  } catch (err) {
    return (err as Error).message || (err as NodeJS.ErrnoException).code || String(err);
  } finally {
    await client.end().catch(() => undefined);
  }
}

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(not a URL)";
  }
}

export interface ThrowawayDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * Creates an empty database with a unique name; drop() removes it even if connections linger.
 * On the run's server unless `adminUrl` names another (a server on a small disk, say).
 */
export async function createThrowawayDatabase(adminUrl = testPostgresAdminUrl()): Promise<ThrowawayDatabase> {
  const name = `mailwise_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}
