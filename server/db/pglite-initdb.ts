/**
 * Creates a new embedded database folder (PGlite's initdb) and exits. It runs as a child process
 * of its own (pglite-thread.ts), not a thread: initdb's memory (WebAssembly, and the malloc arenas
 * its thread and V8's compiler threads grew) would otherwise stay with the server for good, about
 * 70 MB of RSS after a thread ends (decision 0080). A process gives all of it back when it exits.
 *
 *   node <tsx bootstrap> pglite-initdb.ts <dataDir>
 * Exits 0 once the folder is created and closed; otherwise prints why on stderr and exits 1.
 */
import { PGlite } from "@electric-sql/pglite";
import { pgliteStartParams } from "./pglite-settings.ts";

const dataDir = process.argv.at(-1);
try {
  if (!dataDir) throw new Error("pglite-initdb.ts needs the data folder as its argument");
  const db = await PGlite.create({ dataDir, startParams: pgliteStartParams(PGlite.defaultStartParams) });
  await db.close();
  process.exit(0);
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exit(1);
}
