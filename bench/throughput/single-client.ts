/**
 * Single-client latency: one connection, one request at a time, no think time. Reads go through
 * load-client.ts (autocannon in its own process); archives are PATCHes of distinct emails sent
 * from this process, which does nothing else meanwhile.
 */
import { Pool } from "undici";
import type { AppProcess } from "../mail/app-process.ts";
import { type LatencySummary, latencySummary } from "../mail/latency-summary.ts";
import { loadUrl } from "../mail/load-runner.ts";

export interface SingleResult extends LatencySummary {
  count: number;
  errors: number;
}

/** One GET path for `seconds` on one connection, after a discarded one-second warm-up. */
export async function singleClientGet(
  app: AppProcess,
  token: string,
  path: string,
  seconds: number,
): Promise<SingleResult> {
  await loadUrl(`${app.url}${path}`, { connections: 1, seconds: 1, token });
  const r = await loadUrl(`${app.url}${path}`, { connections: 1, seconds, token });
  return {
    p50: r.p50,
    p95: r.p95,
    p99: r.p99,
    max: r.max,
    count: Math.round(r.rps * seconds),
    errors: r.errors,
  };
}

/**
 * Archives emails one after another (PATCH isArchived: true, each email once) for `seconds` or
 * until `ids` runs out; the time is until the answer is acknowledged, the provider write follows.
 * Returns how many ids it used, so the caller never archives one twice.
 */
export async function singleClientArchive(
  app: AppProcess,
  token: string,
  ids: readonly string[],
  seconds: number,
): Promise<SingleResult & { used: number }> {
  const pool = new Pool(app.url, { connections: 1, pipelining: 1 });
  const times: number[] = [];
  let errors = 0;
  const deadline = performance.now() + seconds * 1000;
  try {
    for (const id of ids) {
      if (performance.now() >= deadline) break;
      const started = performance.now();
      const answer = await pool.request({
        method: "PATCH",
        path: `/api/emails/${id}`,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ isArchived: true }),
      });
      await answer.body.text();
      times.push(performance.now() - started);
      if (answer.statusCode >= 300) errors += 1;
    }
  } finally {
    await pool.close();
  }
  return { ...latencySummary(times), count: times.length, errors, used: times.length };
}
