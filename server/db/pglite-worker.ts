/**
 * The embedded database's thread: PGlite answering the PostgreSQL wire protocol that
 * node-postgres speaks in the main thread (pglite-thread.ts). Queries run here, on the other
 * core, while the main thread serves HTTP and syncs mail (decision 0014).
 */
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import type { FromWorker, ToWorker } from "./pglite-wire.ts";
import { splitMessages } from "./pglite-wire.ts";

const port = parentPort;
if (!port) throw new Error("pglite-worker.ts runs only as a worker thread");
const { dataDir } = workerData as { dataDir: string | undefined };

const send = (message: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

let db: PGlite;
try {
  db = await PGlite.create(dataDir ? { dataDir } : {});
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

async function run(id: number, bytes: Uint8Array): Promise<void> {
  const { messages, rest } = splitMessages(pending.get(id), bytes, !started.has(id));
  pending.set(id, rest);
  if (messages.length > 0) started.add(id);
  if (messages.length === 0) return;
  const out: Uint8Array[] = [];
  let size = 0;
  for (const message of messages) {
    await db.execProtocolRawStream(message, {
      onRawData: (chunk) => {
        out.push(chunk.slice());
        size += chunk.length;
      },
    });
  }
  if (size === 0) return;
  const reply = new Uint8Array(size);
  let at = 0;
  for (const chunk of out) {
    reply.set(chunk, at);
    at += chunk.length;
  }
  send({ type: "data", id, bytes: reply }, [reply.buffer as ArrayBuffer]);
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
    }
  });
});

send({ type: "ready" });
