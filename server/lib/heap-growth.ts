import v8 from "node:v8";

/**
 * How far V8 lets the JavaScript heap grow past what the last full collection kept, as a percent
 * (decision 0087). V8's own factor rises to 4x under a high allocation rate: a sync burst or the
 * 50-user load then left the main heap at 230 MB with 55 MB alive, which is most of the gap
 * between the embedded server's RSS under load and its 450 MB budget. At 2x (100%) the heap peaked
 * at about 170 MB with the same req/s; at 1.5x the extra collections cost a quarter of the req/s.
 */
export const HEAP_GROWING_PERCENT = 100;

/**
 * Sets the growth factor for every isolate of this process (the PGlite and analyzer threads
 * included). V8 reads the flag at each full collection, so it applies when set at start, before
 * the heap has grown, unlike the heap-size flags, which only the command line can set.
 */
export function limitHeapGrowth(percent: number = HEAP_GROWING_PERCENT): void {
  v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}
