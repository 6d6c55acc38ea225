import { percentile } from "../sync/report.ts";

/** Response-time percentiles in ms, to 0.1 ms. */
export interface LatencySummary {
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/**
 * The load clients' percentiles, exact from every recorded response time (autocannon's own
 * summary has p90 and p97.5 but no p95); NaN when nothing was recorded.
 */
export function latencySummary(times: readonly number[]): LatencySummary {
  const sorted = [...times].sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    p50: round(percentile(sorted, 0.5)),
    p95: round(percentile(sorted, 0.95)),
    p99: round(percentile(sorted, 0.99)),
    max: round(sorted.at(-1) ?? Number.NaN),
  };
}
