/**
 * Summarises a V8 .cpuprofile (what `node --cpu-prof` writes) as self time: the functions, and the
 * areas (a package, a folder of ours, Node's internals, the garbage collector), that held the CPU
 * when it was sampled. Idle time is left out of the shares: they say where the busy time went.
 *
 *   npx tsx bench/throughput/cpu-profile-summary.ts <file.cpuprofile> [top]
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  hitCount?: number;
}

/** The parts of a .cpuprofile this reads (Chrome DevTools protocol's Profiler.Profile). */
export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  /** Microseconds between one sample and the one before it. */
  timeDeltas?: number[];
}

export interface SelfTimeEntry {
  name: string;
  ms: number;
  /** Share of the busy (non-idle) time, 0..1. */
  share: number;
}

export interface ProfileSummary {
  /** Profiled wall time. */
  totalMs: number;
  /** Time not idle: what the shares are of. */
  busyMs: number;
  functions: SelfTimeEntry[];
  areas: SelfTimeEntry[];
}

/** Where a frame's code lives, short: `drizzle-orm`, `node:zlib`, `server/mail`, `wasm`, `(program)`. */
export function areaOf(frame: CallFrame): string {
  const url = frame.url;
  // Native functions (postMessage to a worker, a socket's writev) have no URL: each its own area.
  if (!url) return frame.functionName.startsWith("(") ? frame.functionName : `${frame.functionName} (native)`;
  // PGlite's PostgreSQL is WebAssembly; its functions have numbers, not names.
  if (url.startsWith("wasm://")) return "wasm";
  const modules = url.lastIndexOf("/node_modules/");
  if (modules >= 0) {
    const rest = url.slice(modules + "/node_modules/".length).split("/");
    return rest[0]?.startsWith("@") ? `${rest[0]}/${rest[1] ?? ""}` : (rest[0] ?? url);
  }
  if (url.startsWith("node:")) return url;
  // Our own code: the first two folders under the checkout (server/mail, server/db, ...).
  const ours = /\/(server|contract|emulator|bench|scripts)\/(?:([^/]+)\/)?/.exec(url);
  if (ours) return ours[2] && !ours[2].includes(".") ? `${ours[1]}/${ours[2]}` : (ours[1] ?? url);
  return url.replace(/^file:\/\//, "");
}

/** One function's label: its name and where it is, short enough for a table cell. */
export function functionLabel(frame: CallFrame): string {
  const name = frame.functionName || "(anonymous)";
  if (!frame.url) return name;
  const modules = frame.url.lastIndexOf("/node_modules/");
  const short =
    modules >= 0
      ? frame.url.slice(modules + "/node_modules/".length)
      : frame.url.replace(/^file:\/\/.*?\/(server|contract|emulator|bench|scripts)\//, "$1/");
  // lineNumber is 0-based in the profile.
  return `${name} (${short}:${frame.lineNumber + 1})`;
}

/**
 * A stretch of a profile to keep, in microseconds of the machine's monotonic clock: V8 stamps
 * samples with that clock, the one `process.hrtime` reads, so another process on the same machine
 * can say "from when the load started to when it ended" (the server's start is left out).
 */
export interface ProfileWindow {
  fromUs: number;
  toUs: number;
}

/** Now on the clock profiles are stamped with (see ProfileWindow). */
export function monotonicUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/**
 * Self time of each node in ms: from the samples and their time deltas when the profile has them
 * (a sample lasts until the next one), else hit counts times the mean interval (the whole profile:
 * without samples there are no times to cut a window by).
 */
function selfTimes(profile: CpuProfile, window?: ProfileWindow): Map<number, number> {
  const out = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  if (samples.length > 0 && deltas.length === samples.length) {
    let at = profile.startTime;
    for (let i = 0; i < samples.length; i++) {
      at += deltas[i] ?? 0;
      if (window && (at < window.fromUs || at > window.toUs)) continue;
      const id = samples[i] as number;
      const next = deltas[i + 1];
      const us = next !== undefined && next >= 0 ? next : 0;
      out.set(id, (out.get(id) ?? 0) + us / 1000);
    }
    return out;
  }
  const hits = profile.nodes.reduce((sum, n) => sum + (n.hitCount ?? 0), 0);
  const interval = hits > 0 ? (profile.endTime - profile.startTime) / 1000 / hits : 0;
  for (const n of profile.nodes) out.set(n.id, (n.hitCount ?? 0) * interval);
  return out;
}

function top(map: Map<string, number>, busyMs: number, count: number): SelfTimeEntry[] {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, ms]) => ({ name, ms: Math.round(ms), share: busyMs > 0 ? ms / busyMs : 0 }));
}

/** The `count` largest self-time functions and areas of a profile (or of a window of it), idle left out. */
export function summariseProfile(profile: CpuProfile, count = 5, window?: ProfileWindow): ProfileSummary {
  const times = selfTimes(profile, window);
  const byFunction = new Map<string, number>();
  const byArea = new Map<string, number>();
  let totalMs = 0;
  let idleMs = 0;
  for (const node of profile.nodes) {
    const ms = times.get(node.id) ?? 0;
    totalMs += ms;
    if (node.callFrame.functionName === "(idle)") {
      idleMs += ms;
      continue;
    }
    const fn = functionLabel(node.callFrame);
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + ms);
    const area = areaOf(node.callFrame);
    byArea.set(area, (byArea.get(area) ?? 0) + ms);
  }
  const busyMs = totalMs - idleMs;
  return {
    totalMs: Math.round(totalMs),
    busyMs: Math.round(busyMs),
    functions: top(byFunction, busyMs, count),
    areas: top(byArea, busyMs, count),
  };
}

export async function readProfile(file: string): Promise<CpuProfile> {
  return JSON.parse(await readFile(file, "utf8")) as CpuProfile;
}

const pct = (share: number) => `${(100 * share).toFixed(1)}%`;

/** Markdown lines: the top functions and areas, each with its share of the busy time. */
export function profileMarkdown(summary: ProfileSummary): string[] {
  return [
    `Profiled ${(summary.totalMs / 1000).toFixed(1)} s, busy ${(summary.busyMs / 1000).toFixed(1)} s (shares below are of the busy time).`,
    "",
    "| # | self time, by function | share | self time, by area | share |",
    "| --- | --- | --- | --- | --- |",
    ...Array.from({ length: Math.max(summary.functions.length, summary.areas.length) }, (_, i) => {
      const f = summary.functions[i];
      const a = summary.areas[i];
      return `| ${i + 1} | ${f ? `\`${f.name}\`` : ""} | ${f ? pct(f.share) : ""} | ${a ? `\`${a.name}\`` : ""} | ${a ? pct(a.share) : ""} |`;
    }),
  ];
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [file, count] = process.argv.slice(2);
  if (!file) throw new Error("usage: cpu-profile-summary.ts <file.cpuprofile> [top]");
  const summary = summariseProfile(await readProfile(file), Number(count ?? 5));
  console.log(profileMarkdown(summary).join("\n"));
}
