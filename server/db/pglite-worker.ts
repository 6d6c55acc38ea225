/**
 * The embedded database's thread: PGlite answering the PostgreSQL wire protocol that
 * node-postgres speaks in the main thread (pglite-thread.ts). Queries run here, on the other
 * core, while the main thread serves HTTP and syncs mail (decision 0014).
 */
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { createSessionMux, joinedBytes } from "./pglite-sessions.ts";
import { pgliteStartParams } from "./pglite-settings.ts";
import type { FromWorker, ToWorker } from "./pglite-wire.ts";
import { fatalErrorIn } from "./pglite-wire.ts";

const port = parentPort;
if (!port) throw new Error("pglite-worker.ts runs only as a worker thread");
const { dataDir } = workerData as { dataDir: string | undefined };

const send = (message: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

let db: PGlite;
try {
  db = await PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    startParams: pgliteStartParams(PGlite.defaultStartParams),
  });
} catch (err) {
  send({ type: "failed", message: (err as Error).message });
  process.exit(1);
}

/**
 * When the statement now in PGlite started, while one is. PGlite's statements run synchronously
 * in WebAssembly, so this thread's timers only fire between them.
 */
let busySince: number | undefined;
/**
 * Set once PGlite cannot go on. Nothing more is sent to it: after a PANIC its next call never
 * returns, which once left every later statement waiting for ever (issue 34: a full disk).
 */
let dead = false;
/** A statement still unanswered when a timer fires, this long after it started, is waiting on nothing. */
const STALL_MS = 3_000;

function fatal(message: string, code?: string): void {
  if (dead) return;
  dead = true;
  send({ type: "fatal", message, ...(code ? { code } : {}) });
}

setInterval(() => {
  if (busySince !== undefined && Date.now() - busySince > STALL_MS)
    fatal(`the embedded database stopped answering (a statement has waited over ${STALL_MS / 1000} s)`);
}, 500).unref();

/** An abort inside the WebAssembly module leaves PGlite in no state to run anything again. */
function fatalIfAborted(err: unknown): void {
  const name = (err as Error)?.name;
  if (name === "RuntimeError" || name === "ExitStatus") fatal((err as Error).message);
}

// The main thread's connections share PGlite's one session (pglite-sessions.ts, decision 0088).
const sessions = createSessionMux({
  async execute(messages, syncToFs) {
    if (dead) throw new Error("the embedded database has stopped");
    const out: Uint8Array[] = [];
    busySince = Date.now();
    try {
      // PGlite's protocol loop reads any number of whole messages from one buffer, so a batch
      // (a query's Parse/Bind/Describe/Execute/Sync) goes in as one call with one file sync.
      await db.execProtocolRawStream(messages, {
        syncToFs,
        onRawData: (chunk) => {
          out.push(chunk.slice());
        },
      });
    } catch (err) {
      fatalIfAborted(err);
      throw err;
    } finally {
      busySince = undefined;
    }
    return joinedBytes(out);
  },
  async exec(sql) {
    if (dead) return;
    await db.exec(sql);
  },
  reply(id, bytes) {
    const failure = fatalErrorIn(bytes);
    send({ type: "data", id, bytes }, [bytes.buffer as ArrayBuffer]);
    if (failure) fatal(failure.message, failure.code);
  },
  failed(id, err) {
    send({ type: "error", id, message: err.message });
  },
});

port.on("message", (message: ToWorker) => {
  if (message.type === "data") sessions.data(message.id, message.bytes);
  else if (message.type === "close") sessions.close(message.id);
  else if (message.type === "shutdown") {
    void (async () => {
      await sessions.stop();
      if (!dead) await db.close().catch(() => undefined);
      send({ type: "closed" });
    })();
  }
});

send({ type: "ready" });
