/**
 * User A of flood.ts, in a process of its own so its 1,000 requests do not share an event loop
 * with user B's timings: fires `count` list requests at once, each on its own connection, and
 * prints one JSON line: how many were served, refused (429) or failed, and how long the flood took.
 *
 *   npx tsx bench/fairness/flood-client.ts <url> <token> <count>
 */
import { Pool } from "undici";
import { runMain } from "../sync/report.ts";

export interface FloodResult {
  served: number;
  refused: number;
  failed: number;
  seconds: number;
  retryAfter: string[];
}

async function main(): Promise<void> {
  const [url, token, countText] = process.argv.slice(2);
  if (!url || !token) throw new Error("usage: flood-client.ts <url> <token> <count>");
  const count = Number(countText ?? 1000);
  const pool = new Pool(url, { connections: count, pipelining: 1 });
  const result: FloodResult = { served: 0, refused: 0, failed: 0, seconds: 0, retryAfter: [] };
  const started = performance.now();
  await Promise.all(
    Array.from({ length: count }, async () => {
      try {
        const answer = await pool.request({
          method: "GET",
          path: "/api/emails?limit=50",
          headers: { authorization: `Bearer ${token}` },
        });
        await answer.body.arrayBuffer();
        if (answer.statusCode === 200) result.served += 1;
        else if (answer.statusCode === 429) {
          result.refused += 1;
          const wait = String(answer.headers["retry-after"] ?? "");
          if (!result.retryAfter.includes(wait)) result.retryAfter.push(wait);
        } else result.failed += 1;
      } catch {
        result.failed += 1;
      }
    }),
  );
  result.seconds = (performance.now() - started) / 1000;
  await pool.close();
  console.log(JSON.stringify(result));
}

runMain(main);
