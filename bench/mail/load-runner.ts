/**
 * Runs the load clients (load-client.ts, mixed-load-client.ts) in processes of their own, so
 * their HTTP parsing never shares the measured server's event loop, and reads their JSON answer.
 */
import { execFile } from "node:child_process";
import { rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { LoadResult } from "./load-client.ts";
import type { MixedPlan, MixedResult } from "./mixed-load-client.ts";

const run = promisify(execFile);
const CLIENT = fileURLToPath(new URL("./load-client.ts", import.meta.url));
const MIXED_CLIENT = fileURLToPath(new URL("./mixed-load-client.ts", import.meta.url));

function lastJsonLine<T>(stdout: string): T {
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as T;
}

/** One URL under `connections` keep-alive connections for `seconds` (autocannon). */
export async function loadUrl(
  url: string,
  opts: {
    connections: number;
    seconds: number;
    token?: string | undefined;
    acceptEncoding?: string | undefined;
  },
): Promise<LoadResult> {
  const args = [
    "--import",
    "tsx",
    CLIENT,
    url,
    String(opts.connections),
    String(opts.seconds),
    opts.token ?? "",
    ...(opts.acceptEncoding ? [opts.acceptEncoding] : []),
  ];
  const { stdout } = await run(process.execPath, args, { maxBuffer: 1 << 20 });
  return lastJsonLine<LoadResult>(stdout);
}

/** The mixed load of mixed-load-client.ts; the plan goes through a temporary file. */
export async function loadMixed(plan: MixedPlan): Promise<MixedResult> {
  const file = path.join(os.tmpdir(), `mailwise-mixed-${process.pid}-${Date.now()}.json`);
  await writeFile(file, JSON.stringify(plan));
  try {
    const { stdout } = await run(process.execPath, ["--import", "tsx", MIXED_CLIENT, file], {
      maxBuffer: 1 << 20,
    });
    return lastJsonLine<MixedResult>(stdout);
  } finally {
    await rm(file, { force: true });
  }
}

/** The round with the median p95 stands for the call; the others' p95 are shown beside it. */
export function medianRound(rounds: LoadResult[]): LoadResult {
  const sorted = [...rounds].sort((a, b) => a.p95 - b.p95);
  const median = sorted[Math.floor((sorted.length - 1) / 2)];
  if (!median) throw new Error("no rounds measured");
  return median;
}

/** A call measured in rounds: the median-p95 round, with every round's errors and p95. */
export interface MeasuredCall extends LoadResult {
  /** Every round's p95, in the order measured. */
  p95s: number[];
}

/**
 * Measures one call as the load benches report it: a warm-up round, discarded, then `rounds`
 * rounds, because one round's p95 moves from run to run. The round with the median p95 stands
 * for the call; errors count every round's, not only the median's.
 */
export async function measureRounds(round: () => Promise<LoadResult>, rounds: number): Promise<MeasuredCall> {
  await round();
  const measured: LoadResult[] = [];
  for (let i = 0; i < rounds; i++) measured.push(await round());
  return {
    ...medianRound(measured),
    errors: measured.reduce((sum, x) => sum + x.errors, 0),
    p95s: measured.map((x) => x.p95),
  };
}
