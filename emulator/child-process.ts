import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { type StartEmulatorOptions, startEmulator } from "./server.ts";

/**
 * The emulator in a process of its own, as the real providers are: benchmarks use it so that the
 * provider's CPU time (rendering messages, answering batches) is not charged to the app's event loop.
 * Options cross the process boundary as JSON, so only plain-data options are accepted.
 */
export interface EmulatorProcess {
  url: string;
  close(): Promise<void>;
}

type ParentMessage = { options: StartEmulatorOptions };
type ChildMessage = { url: string } | { error: string };

/** Forks this file as the emulator's process and resolves once it listens. */
export function forkEmulator(options: StartEmulatorOptions): Promise<EmulatorProcess> {
  const child = fork(fileURLToPath(import.meta.url), [], {
    // The parent's flags (a profiler, say) carry over; TypeScript is loaded as in the parent.
    execArgv: process.execArgv.some((arg) => arg.includes("tsx"))
      ? process.execArgv
      : [...process.execArgv, "--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) =>
      reject(new Error(`emulator process exited (${code}) before listening`));
    child.once("exit", onExit);
    child.once("error", reject);
    child.once("message", (message: ChildMessage) => {
      child.off("exit", onExit);
      if ("error" in message) {
        child.kill();
        reject(new Error(`emulator process failed to start: ${message.error}`));
        return;
      }
      resolve({ url: message.url, close: () => stop(child) });
    });
    child.send({ options } satisfies ParentMessage);
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.disconnect();
  });
}

// In the forked process: start on the parent's options; leave when the parent lets go.
if (process.send !== undefined && process.argv[1] === fileURLToPath(import.meta.url)) {
  const send = process.send.bind(process);
  process.once("message", (message: ParentMessage) => {
    startEmulator(message.options).then(
      (running) => {
        send({ url: running.url } satisfies ChildMessage);
        process.once("disconnect", () => {
          running.close().finally(() => process.exit(0));
        });
      },
      (error: unknown) => {
        send({ error: error instanceof Error ? error.message : String(error) } satisfies ChildMessage);
      },
    );
  });
}
