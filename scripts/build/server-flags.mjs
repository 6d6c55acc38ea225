// Node options every Mailwise server process starts with (decision 0087). They must be on the
// command line: the thread pool they size exists before any of our code runs. `npm start`
// (package.json) and `npm run start:cluster` pass them; server-flags.test.ts keeps package.json
// in step with this list. Plain JavaScript, like the launcher that shares the folder.

/**
 * V8's background threads (concurrent GC, compilation): Node starts 4. Each keeps a glibc malloc
 * arena holding the peak of the compile work it did, and PGlite's WebAssembly module is compiled
 * on all of them at start: 89-106 MB of arenas with 4 threads, 55-56 MB with 2, on a 2-core
 * machine where 2 threads already use every core (and the database opened ~10% sooner).
 */
export const SERVER_NODE_FLAGS = ["--v8-pool-size=2"];
