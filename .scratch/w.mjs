import { PGlite } from "@electric-sql/pglite";
import { parentPort, workerData } from "node:worker_threads";
const opts = { dataDir: workerData.dir };
if (workerData.conf) opts.postgresqlconf = workerData.conf;
const db = await PGlite.create(opts);
await db.query("select 1");
parentPort.postMessage("ready");
parentPort.on("message", async () => { await db.close(); parentPort.postMessage("closed"); });
