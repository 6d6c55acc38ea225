import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** The line a worker logs once its jobs, poller and sweeps run. */
export const WORKER_READY_LINE = "worker started: running jobs and the sync poller";

export interface WorkerProcess {
  child: ChildProcess;
  /** Its log (the last 200 lines), for failure messages. */
  lines: string[];
  ready: Promise<void>;
  exited: Promise<void>;
}

/** The real server in the worker role, in its own process (`tsx server/main.ts --role=worker`). */
export function startWorker(name: string, env: NodeJS.ProcessEnv): WorkerProcess {
  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts", "--role=worker"], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const ready = new Promise<void>((resolve, reject) => {
    child.once("exit", (code, signal) =>
      reject(new Error(`${name} exited (${code ?? signal}) before it was ready:\n${lines.join("\n")}`)),
    );
    for (const stream of [child.stdout, child.stderr]) {
      if (!stream) continue;
      createInterface({ input: stream }).on("line", (line) => {
        lines.push(line);
        if (lines.length > 200) lines.shift();
        if (line.includes(WORKER_READY_LINE)) resolve();
      });
    }
  });
  // Rejections after readiness (a kill) are expected; nobody awaits `ready` then.
  ready.catch(() => undefined);
  return { child, lines, ready, exited };
}

/** SIGTERM, then SIGKILL after 10 s; resolves once the process is gone. */
export async function stopWorker(w: WorkerProcess): Promise<void> {
  if (w.child.exitCode !== null || w.child.signalCode !== null) return;
  w.child.kill("SIGTERM");
  const timer = setTimeout(() => w.child.kill("SIGKILL"), 10_000);
  await w.exited;
  clearTimeout(timer);
}
