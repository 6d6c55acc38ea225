/**
 * Preloaded into a benchmarked server (`--import`): the event-loop delay of its main thread,
 * written as JSON to LOOP_PROBE_FILE on each SIGUSR2 (then reset), so a bench can tell time lost
 * waiting for the event loop from time lost waiting for the database.
 */
import { writeFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";

const file = process.env.LOOP_PROBE_FILE;
if (file) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const ms = (ns: number) => Math.round(ns / 1e4) / 100;
  process.on("SIGUSR2", () => {
    writeFileSync(
      file,
      JSON.stringify({
        mean: ms(histogram.mean),
        p50: ms(histogram.percentile(50)),
        p95: ms(histogram.percentile(95)),
        p99: ms(histogram.percentile(99)),
        max: ms(histogram.max),
      }),
    );
    histogram.reset();
  });
}
