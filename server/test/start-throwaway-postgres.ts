/**
 * Starts a throwaway PostgreSQL server (see startThrowawayPostgres), prints one JSON line
 * `{"url","folder","version"}`, and stops it (deleting its folder) on SIGINT or SIGTERM.
 * Tests use it to start a server in another process; by hand: `npx tsx server/test/start-throwaway-postgres.ts`.
 */
import { startThrowawayPostgres } from "./throwaway-postgres.ts";

const server = await startThrowawayPostgres();
console.log(JSON.stringify({ url: server.url, folder: server.folder, version: server.version }));
const stop = async () => {
  await server.stop();
  process.exit(0);
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
