import { execSync } from "node:child_process";
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";

const RESULTS = join(import.meta.dirname, "..", "RESULTS.md");

/** Machine line for a results section: date, CPU model, cores, Node version. */
export function machineLine(): string {
  const cpu = readCpuModel();
  const cores = execSync("nproc").toString().trim();
  const load = loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
  // Load average matters: timings taken while other work shares the cores are pessimistic.
  return `${new Date().toISOString()} · ${cpu} · nproc ${cores} · node ${process.version} · load avg ${load}`;
}

function readCpuModel(): string {
  try {
    const info = readFileSync("/proc/cpuinfo", "utf8");
    const match = /^model name\s*:\s*(.+)$/m.exec(info);
    if (match?.[1]) return match[1].trim();
  } catch {
    // Not Linux: fall back to what Node reports.
  }
  return cpus()[0]?.model ?? "unknown CPU";
}

/** Appends a section to bench/RESULTS.md (created with its header if missing). */
export function appendResults(markdown: string): void {
  if (!existsSync(RESULTS)) writeFileSync(RESULTS, "# Benchmark results\n");
  appendFileSync(RESULTS, `\n${markdown.trimEnd()}\n`);
}

export function pct(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}

/** True when the script should write to RESULTS.md (run-all passes --no-append to its children). */
export function shouldAppend(): boolean {
  return !process.argv.includes("--no-append");
}
