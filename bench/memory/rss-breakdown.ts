/**
 * Where a process's resident memory lies, from /proc/<pid>/smaps (Linux), sorted by kind of
 * mapping. The kinds are read from the mappings' shapes, so they are a guide, not an account:
 *   - malloc arenas: glibc's per-thread heaps, 64 MB-aligned anonymous mappings of at most 64 MB
 *     (worker threads', libuv's and V8's background threads' malloc, ArrayBuffer backing stores);
 *   - [heap]: the main thread's malloc (brk);
 *   - WebAssembly memory: one anonymous mapping of 100 MB or more (PGlite's heap; it never shrinks);
 *   - V8 heap pages: anonymous mappings of at most 1 MB (both isolates' JavaScript heaps, code);
 *   - files: the node binary and shared libraries.
 */
import { readFile } from "node:fs/promises";

export type RssBreakdown = Record<string, number>;

const MB = 1024;

function kindOf(start: bigint, sizeKb: number, name: string): string {
  if (name.startsWith("/")) return "files";
  if (name) return name;
  if (start % (64n << 20n) === 0n && sizeKb <= 64 * MB) return "malloc arenas";
  if (sizeKb >= 100 * MB) return "WebAssembly memory";
  if (sizeKb <= MB) return "V8 heap pages";
  return "other anonymous";
}

/** Resident MB by kind of mapping, largest first. */
export async function rssBreakdown(pid: number): Promise<RssBreakdown> {
  const text = await readFile(`/proc/${pid}/smaps`, "utf8").catch(() => "");
  const kb = new Map<string, number>();
  let kind = "other anonymous";
  for (const line of text.split("\n")) {
    const mapping = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (mapping) {
      const start = BigInt(`0x${mapping[1]}`);
      const size = Number((BigInt(`0x${mapping[2]}`) - start) / 1024n);
      kind = kindOf(start, size, (mapping[3] ?? "").trim());
    } else if (line.startsWith("Rss:")) {
      kb.set(kind, (kb.get(kind) ?? 0) + Number(line.split(/\s+/)[1] ?? 0));
    }
  }
  return Object.fromEntries(
    [...kb.entries()].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, Math.round(v / MB)]),
  );
}

/** "malloc arenas 210, V8 heap pages 182, ..." (MB), kinds under 5 MB left out. */
export function formatBreakdown(b: RssBreakdown): string {
  return Object.entries(b)
    .filter(([, mb]) => mb >= 5)
    .map(([k, mb]) => `${k} ${mb}`)
    .join(", ");
}
