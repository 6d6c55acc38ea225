import { appendFile, readFile, writeFile } from "node:fs/promises";
import os from "node:os";

/** Machine line for a results section: when, CPU, cores, node, load (noisy machines). */
export function machineLine(): string {
  const cpu = os.cpus()[0]?.model.trim() ?? "unknown CPU";
  const load = os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
  return `${new Date().toISOString()} · ${cpu} · nproc ${os.cpus().length} · node ${process.version} · load avg ${load}`;
}

/** Appends a section to bench/RESULTS.md (creating it with its title when missing). */
export async function appendResults(section: string): Promise<void> {
  const file = new URL("../RESULTS.md", import.meta.url);
  const existing = await readFile(file, "utf8").catch(() => "");
  if (!existing) await writeFile(file, "# Benchmark results\n");
  await appendFile(file, `\n${section.trim()}\n`);
}

export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

/** Appends a results section to bench/RESULTS.md unless the run says --no-append, then prints it. */
export async function publishResults(section: string): Promise<void> {
  if (!process.argv.includes("--no-append")) await appendResults(section);
  console.log(section);
}

/**
 * Runs a bench script's main and exits: 0 when it ends, 1 with the error printed when it throws.
 * The exit is explicit because a pool, server or timer left open would keep a finished run alive.
 */
export function runMain(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
