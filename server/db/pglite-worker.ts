/**
 * The embedded database's thread: PGlite answering the PostgreSQL wire protocol that
 * node-postgres speaks in the main thread (pglite-thread.ts). Queries run here, on the other
 * core, while the main thread serves HTTP and syncs mail (decision 0014).
 */
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { pgliteStartParams } from "./pglite-settings.ts";
import type { FromWorker, ToWorker } from "./pglite-wire.ts";
import { fatalErrorIn, splitMessages } from "./pglite-wire.ts";

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

/** Bytes received per connection that do not yet form a whole protocol message. */
const pending = new Map<number, Uint8Array>();
/** Connections whose startup message has been read. */
const started = new Set<number>();
// One connection's messages at a time, in arrival order: PGlite is a single session.
let queue: Promise<void> = Promise.resolve();

const TERMINATE = 0x58;

/**
 * Set once PGlite cannot go on. Nothing more is sent to it: after a PANIC its next call never
 * returns, which once left every later statement waiting for ever (issue 34: a full disk).
 */
let dead = false;
/** When the statement now in PGlite started, while one is. */
let busySince: number | undefined;
/**
 * PGlite's statements run synchronously in WebAssembly, so this thread's timers only fire between
 * them. A statement still unanswered when a timer fires, this long after it started, is waiting on
 * nothing that will come.
 */
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

async function run(id: number, bytes: Uint8Array): Promise<void> {
  const startup = !started.has(id);
  const { messages, rest } = splitMessages(pending.get(id), bytes, startup);
  pending.set(id, rest);
  if (messages.length === 0) return;
  started.add(id);
  const out: Uint8Array[] = [];
  let size = 0;
  const exec = async (message: Uint8Array, syncToFs: boolean) => {
    busySince = Date.now();
    try {
      await db.execProtocolRawStream(message, {
        syncToFs,
        onRawData: (chunk) => {
          out.push(chunk.slice());
          size += chunk.length;
        },
      });
    } finally {
      busySince = undefined;
    }
  };
  // PGlite's protocol loop reads any number of whole messages from one buffer, so what arrived
  // together (a query's Parse/Bind/Describe/Execute/Sync) goes in as one call with one file
  // sync, not one each. The startup message and Terminate are special cases for PGlite: alone.
  if (!startup && messages.every((m) => m[0] !== TERMINATE)) {
    await exec(contiguous(messages), true);
  } else {
    for (const [index, message] of messages.entries()) await exec(message, index === messages.length - 1);
  }
  if (size === 0) return;
  const reply = new Uint8Array(size);
  let at = 0;
  for (const chunk of out) {
    reply.set(chunk, at);
    at += chunk.length;
  }
  const failure = fatalErrorIn(reply);
  send({ type: "data", id, bytes: reply }, [reply.buffer as ArrayBuffer]);
  if (failure) fatal(failure.message, failure.code);
}

/** Messages split from one buffer lie back to back in it: one view over all of them. */
function contiguous(messages: readonly Uint8Array[]): Uint8Array {
  const first = messages[0];
  const last = messages[messages.length - 1];
  if (!first || !last) return new Uint8Array(0);
  return new Uint8Array(first.buffer, first.byteOffset, last.byteOffset + last.length - first.byteOffset);
}

/** A closed connection must not leave its transaction or prepared statements to the next one. */
async function reset(id: number): Promise<void> {
  pending.delete(id);
  started.delete(id);
  if (db.isInTransaction()) await db.exec("rollback");
  await db.exec("deallocate all");
}

port.on("message", (message: ToWorker) => {
  queue = queue.then(async () => {
    if (dead) return;
    try {
      if (message.type === "data") await run(message.id, message.bytes);
      else if (message.type === "close") await reset(message.id);
      else if (message.type === "shutdown") {
        await db.close();
        send({ type: "closed" });
      }
    } catch (err) {
      if (message.type === "data" || message.type === "close")
        send({ type: "error", id: message.id, message: (err as Error).message });
      // An abort inside the WebAssembly module leaves PGlite in no state to run anything again.
      const name = (err as Error)?.name;
      if (name === "RuntimeError" || name === "ExitStatus") fatal((err as Error).message);
    }
  });
});

send({ type: "ready" });
