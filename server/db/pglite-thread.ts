import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { Duplex } from "node:stream";
import { Worker } from "node:worker_threads";
import { ownModuleUrl, workerBootstrap } from "../lib/own-module.ts";
import type { FromWorker, ToWorker } from "./pglite-wire.ts";
import { DISK_FULL_SQLSTATE, StorageFullError } from "./storage-errors.ts";

// The worker and initdb run the same kind of code as this module: TypeScript under tsx, or compiled JavaScript.
const WORKER_BOOTSTRAP = workerBootstrap(ownModuleUrl("./pglite-worker.ts", import.meta.url));
const INITDB_BOOTSTRAP = workerBootstrap(ownModuleUrl("./pglite-initdb.ts", import.meta.url));

/**
 * The database thread's V8 limits. Its JavaScript is PGlite's glue and the wire relay, whose
 * garbage is short-lived message buffers: V8's default young generation (up to 48 MB on 64-bit)
 * would otherwise stay committed after a burst of traffic (decision 0080).
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 8 };

/** PGlite's initdb on a new data folder, in a child process that gives its memory back on exit. */
function createDataDir(dataDir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ["--input-type=module", "-e", INITDB_BOOTSTRAP, dataDir],
      { maxBuffer: 1 << 20 },
      (err, _stdout, stderr) => {
        if (!err) resolve();
        else reject(new Error(stderr.trim().split("\n").at(-1) || err.message));
      },
    );
  });
}

/**
 * A node-postgres connection to the worker thread's PGlite: looks like the socket pg expects
 * (connect, setNoDelay, write, end, destroy) and carries the same wire protocol bytes.
 */
class WorkerConnection extends Duplex {
  private queued: Uint8Array[] = [];
  private flushScheduled = false;

  constructor(
    private readonly thread: PgliteThread,
    readonly id: number,
  ) {
    super();
  }

  connect(): this {
    this.thread.attach(this);
    queueMicrotask(() => this.emit("connect"));
    return this;
  }
  setNoDelay(): this {
    return this;
  }
  setKeepAlive(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }

  override _read(): void {}

  // pg writes Parse, Bind, Describe, Execute and Sync one by one in the same tick; they cross to
  // the worker as one message.
  override _write(chunk: Buffer, _encoding: string, done: (err?: Error | null) => void): void {
    this.queued.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      queueMicrotask(() => this.flush());
    }
    done();
  }

  private flush(): void {
    this.flushScheduled = false;
    const parts = this.queued;
    this.queued = [];
    let size = 0;
    for (const p of parts) size += p.length;
    const bytes = new Uint8Array(size);
    let at = 0;
    for (const p of parts) {
      bytes.set(p, at);
      at += p.length;
    }
    this.thread.post({ type: "data", id: this.id, bytes }, [bytes.buffer as ArrayBuffer]);
  }

  override _final(done: (err?: Error | null) => void): void {
    if (this.queued.length > 0) this.flush();
    this.thread.detach(this);
    this.push(null);
    done();
  }

  override _destroy(err: Error | null, done: (err?: Error | null) => void): void {
    this.thread.detach(this);
    done(err);
  }
}

/**
 * PGlite in a worker thread. Its queries (WebAssembly, CPU-bound) then run on another core than
 * the server's event loop; the main thread talks to it with node-postgres, as to a real server.
 */
export class PgliteThread {
  private readonly connections = new Map<number, WorkerConnection>();
  private nextId = 1;
  private closed = false;
  /** Why the thread stopped, when it stopped on its own: later connections fail with it at once. */
  private failure: Error | undefined;
  private onClosed: (() => void) | undefined;
  /** Told once when the thread stops on its own (PGlite failed), with why. */
  onFailure: ((err: Error) => void) | undefined;

  private constructor(private readonly worker: Worker) {
    worker.on("message", (message: FromWorker) => this.receive(message));
    worker.on("error", (err) => this.fail(err));
    worker.on("exit", (code) => {
      if (!this.closed) this.fail(new Error(`the embedded database thread stopped (exit code ${code})`));
      this.onClosed?.();
    });
  }

  static async start(dataDir: string | undefined): Promise<PgliteThread> {
    // Creating a database runs PGlite's initdb, whose memory would stay with the thread (810 MB
    // of RSS against 390 MB for the same empty database opened again), and even a thread that
    // ends leaves its malloc arenas behind. A new data folder is therefore created by a child
    // process that then exits, and opened in the thread.
    if (dataDir && !existsSync(path.join(dataDir, "PG_VERSION"))) await createDataDir(dataDir);
    return PgliteThread.open(dataDir);
  }

  private static async open(dataDir: string | undefined): Promise<PgliteThread> {
    const worker = new Worker(WORKER_BOOTSTRAP, {
      eval: true,
      workerData: { dataDir },
      resourceLimits: WORKER_LIMITS,
    });
    await new Promise<void>((resolve, reject) => {
      const onMessage = (message: FromWorker) => {
        if (message.type === "ready") resolve();
        else if (message.type === "failed") reject(new Error(message.message));
        else return;
        worker.off("message", onMessage);
        worker.off("error", reject);
      };
      worker.on("message", onMessage);
      worker.once("error", reject);
    });
    return new PgliteThread(worker);
  }

  /** node-postgres's `stream` option: a new connection to the worker's PGlite. */
  readonly stream = (): Duplex => new WorkerConnection(this, this.nextId++);

  attach(connection: WorkerConnection): void {
    const failure = this.failure;
    if (failure) {
      queueMicrotask(() => connection.destroy(failure));
      return;
    }
    this.connections.set(connection.id, connection);
  }

  detach(connection: WorkerConnection): void {
    if (!this.connections.delete(connection.id) || this.closed) return;
    this.post({ type: "close", id: connection.id });
  }

  post(message: ToWorker, transfer: ArrayBuffer[] = []): void {
    if (this.closed || this.failure) return;
    this.worker.postMessage(message, transfer);
  }

  private receive(message: FromWorker): void {
    if (message.type === "data")
      this.connections
        .get(message.id)
        ?.push(Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength));
    else if (message.type === "error") this.connections.get(message.id)?.destroy(new Error(message.message));
    else if (message.type === "closed") void this.worker.terminate();
    else if (message.type === "fatal") {
      // PGlite will not answer again: fail what waits on it now, and end the thread.
      const reason = `the embedded database stopped: ${message.message}`;
      this.fail(message.code === DISK_FULL_SQLSTATE ? new StorageFullError(reason) : new Error(reason));
      void this.worker.terminate();
    }
  }

  /** Why the thread stopped on its own, if it did: it then answers nothing and must be replaced. */
  get failed(): Error | undefined {
    return this.failure;
  }

  private fail(err: Error): void {
    if (this.failure) return;
    this.failure = err;
    for (const connection of this.connections.values()) connection.destroy(err);
    this.connections.clear();
    this.onFailure?.(err);
  }

  /** Closes PGlite cleanly (its files stay consistent), then the thread. */
  async close(): Promise<void> {
    if (this.closed) return;
    if (this.failure) {
      // A failed PGlite would never answer the shutdown; its files are as its last write left them.
      this.closed = true;
      await this.worker.terminate();
      return;
    }
    const exited = new Promise<void>((resolve) => {
      this.onClosed = resolve;
    });
    this.worker.postMessage({ type: "shutdown" } satisfies ToWorker);
    this.closed = true;
    await exited;
  }
}
