// Node options and environment every Mailwise server process starts with (decisions 0087, 0092).
// They must be there before any of our code runs: the thread pool they size exists, and glibc has
// read its tunables, by then. `npm start` (package.json) and `npm run start:cluster` pass them;
// server-flags.test.ts keeps package.json in step with these lists. Plain JavaScript, like the
// launcher that shares the folder.

/**
 * V8's background threads (concurrent GC, compilation): Node starts 4. Each keeps a glibc malloc
 * arena holding the peak of the compile work it did, and PGlite's WebAssembly module is compiled
 * on all of them at start: 89-106 MB of arenas with 4 threads, 55-56 MB with 2, on a 2-core
 * machine where 2 threads already use every core (and the database opened ~10% sooner).
 */
export const SERVER_NODE_FLAGS = ["--v8-pool-size=2"];

/**
 * glibc's malloc returns every block of 128 KiB or more to the system when it is freed. By
 * default the threshold rises to the largest block freed so far (up to 32 MiB): after PGlite's and
 * the analyzer's threads have passed a few large query results and task messages, blocks up to
 * that size come from the threads' malloc arenas instead, and the arenas keep their peak for the
 * life of the process (84-143 MB idle after two 10k mailboxes, 45-63 MB with the threshold fixed).
 * Other C libraries (macOS, musl) ignore the variable.
 */
export const SERVER_ENV = { GLIBC_TUNABLES: "glibc.malloc.mmap_threshold=131072" };
