/**
 * Vitest's global setup: settles one PostgreSQL server for the whole run (see provideTestPostgres)
 * before any worker starts. Workers inherit this process's environment, so each finds the server
 * in TEST_POSTGRES_URL; a server started here is stopped, and its folder deleted, when the run ends.
 */
import { provideTestPostgres } from "./postgres.ts";

export default async function setup(): Promise<() => Promise<void>> {
  const postgres = await provideTestPostgres();
  process.env.TEST_POSTGRES_URL = postgres.url;
  console.info(`PostgreSQL suites use ${postgres.description}`);
  return () => postgres.stop();
}
