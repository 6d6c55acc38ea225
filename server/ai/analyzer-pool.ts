import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Piscina } from "piscina";
import type { EmailAnalysis } from "../../contract/ai.ts";
import type { AnalyzerTask } from "./analyzer-worker.ts";
import type { AnalyzerContext, AnalyzerInput } from "./local/index.ts";

/**
 * The worker's module: `analyzer-worker.js` beside this file when the server runs as compiled
 * JavaScript, else the TypeScript source with tsx's loader in the worker (Node 20 does not hand
 * the main thread's loader on to worker threads).
 */
export function analyzerWorkerFile(here: string = import.meta.url): { filename: string; execArgv: string[] } {
  const compiled = new URL("./analyzer-worker.js", here);
  if (existsSync(fileURLToPath(compiled))) return { filename: compiled.href, execArgv: [] };
  const tsxLoader = pathToFileURL(
    path.join(path.dirname(createRequire(import.meta.url).resolve("tsx/package.json")), "dist/loader.mjs"),
  ).href;
  return { filename: new URL("./analyzer-worker.ts", here).href, execArgv: ["--import", tsxLoader] };
}

export interface AnalyzerPoolOptions {
  /** Threads running the analyzer; 1 keeps the second core for requests and the database. */
  maxThreads?: number;
  /** A thread idle this long ends, and the memory of its copy of the models goes with it. */
  idleTimeoutMs?: number;
  /** Attempts per batch when a thread dies under it (a crash, out of memory). */
  attempts?: number;
  /** How much lower the threads' OS priority is (Linux nice increment). */
  nice?: number;
}

/**
 * Nice 10 weighs a thread about a tenth of a normal one when the cores are contended: the main
 * thread and PGlite's go first, yet analysis still moves on a machine busy with other programs
 * (nice 19, a sixtieth, took a minute to load the analyzer on a loaded two-core machine).
 */
export const ANALYZER_NICE = 10;

export interface AnalyzerPool {
  /** The local analyzer's result for each item, in order, computed in a worker thread. */
  analyse(items: ReadonlyArray<{ input: AnalyzerInput; context: AnalyzerContext }>): Promise<EmailAnalysis[]>;
  /** Ends the threads; batches asked for afterwards fail. */
  close(): Promise<void>;
  /** Live threads (tests: the idle timeout and a crash). */
  readonly threads: ReadonlyArray<{ terminate(): Promise<number> }>;
}

/**
 * The offline analyzer in a pool of worker threads (decision 0081): its CPU work runs off the
 * request event loop, at a lower OS priority (nice 10) so the main thread and PGlite's thread get
 * the cores first. No thread runs until the first batch; threads end after `idleTimeoutMs`.
 */
export function createAnalyzerPool(opts: AnalyzerPoolOptions = {}): AnalyzerPool {
  const worker = analyzerWorkerFile();
  const attempts = opts.attempts ?? 3;
  const pool = new Piscina<AnalyzerTask, EmailAnalysis[]>({
    filename: worker.filename,
    execArgv: worker.execArgv,
    minThreads: 0,
    maxThreads: opts.maxThreads ?? 1,
    idleTimeout: opts.idleTimeoutMs ?? 30_000,
    niceIncrement: opts.nice ?? ANALYZER_NICE,
  });
  let closed = false;
  return {
    async analyse(items) {
      if (items.length === 0) return [];
      const task: AnalyzerTask = { items: items.map((i) => ({ input: i.input, context: i.context })) };
      for (let attempt = 1; ; attempt++) {
        if (closed) throw new Error("the analyzer pool is closed");
        try {
          return await pool.run(task);
        } catch (err) {
          // The analyzer is pure, so a batch is safe to run again: a thread that died under it
          // (killed, out of memory) must not cost the job its batch. The job retries the rest.
          if (closed || attempt >= attempts) throw err;
        }
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.destroy();
    },
    get threads() {
      return pool.threads;
    },
  };
}
