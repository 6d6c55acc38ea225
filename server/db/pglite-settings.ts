/**
 * PostgreSQL settings for the embedded database (decision 0080). PGlite's heap is WebAssembly
 * memory, which grows and never shrinks: whatever PostgreSQL touches once (its buffer pool, a
 * big sort, an index build) stays resident for the life of the process. PostgreSQL's defaults are
 * sized for a server that owns the machine; here the database shares one process with the app,
 * and the operating system's page cache already keeps the files' hot pages (it counts against no
 * process), so a small pool costs a copy from that cache now and then, not a disk read.
 */
export const PGLITE_SETTINGS: Readonly<Record<string, string>> = {
  // Default 128MB, all of it resident once the data outgrow it. Two synced 10k mailboxes' hot
  // pages (the list's index and first rows, the search index) fit in this. 16MB saved 17 MB of
  // WebAssembly memory but cost the 50-user load a fifth of its req/s (decision 0080).
  shared_buffers: "32MB",
  // A sort or hash over this spills to a temporary file; the list's top-N sort needs far less.
  work_mem: "2MB",
  // VACUUM, CREATE INDEX and the GIN pending-list merge: default 64MB, kept for ever once used.
  maintenance_work_mem: "16MB",
  // ANALYZE reads 300 x this many rows into memory at once: at the default (100) that is 30,000
  // whole email rows (bodies included), the largest allocation the app ever makes the database do.
  default_statistics_target: "10",
  // Session-local buffers for temporary tables, which the app does not use.
  temp_buffers: "1MB",
};

/** The settings as postgres command-line switches, after PGlite's own. */
export function pgliteStartParams(defaults: readonly string[]): string[] {
  return [...defaults, ...Object.entries(PGLITE_SETTINGS).flatMap(([k, v]) => ["-c", `${k}=${v}`])];
}
