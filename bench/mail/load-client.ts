/**
 * The load generator of api-load.ts, run as its own process so that its HTTP parsing does not
 * share the measured server's event loop (a real client never does). Records every response
 * time so p95 is exact (autocannon's summary has p90 and p97.5 but no p95).
 *
 *   npx tsx bench/mail/load-client.ts <url> <connections> <seconds> [bearer token] [accept-encoding]
 * Prints one JSON line: { rps, p50, p95, p99, max, errors }.
 */
import autocannon from "autocannon";
import { runMain } from "../sync/report.ts";
import { latencySummary } from "./latency-summary.ts";

export interface LoadResult {
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  errors: number;
}

async function main(): Promise<void> {
  const [url, connections, seconds, token, acceptEncoding] = process.argv.slice(2);
  if (!url || !connections || !seconds)
    throw new Error("usage: load-client.ts <url> <connections> <seconds> [token] [accept-encoding]");
  const times: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections: Number(connections),
        duration: Number(seconds),
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(acceptEncoding ? { "accept-encoding": acceptEncoding } : {}),
        },
      },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
    instance.on("response", (_client, _status, _bytes, responseTime) => {
      times.push(responseTime);
    });
  });
  const out: LoadResult = {
    rps: result.requests.average,
    ...latencySummary(times),
    errors: result.errors + result.non2xx,
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

runMain(main);
