import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);

/**
 * A churn that promotes garbage to the old generation (each object outlives a few scavenges in a
 * ring, then dies), the shape of a sync burst; prints the largest heap it saw, in MB.
 */
const CHURN = (limit: boolean) => `
import v8 from "node:v8";
import { limitHeapGrowth } from ${JSON.stringify(new URL("./heap-growth.ts", import.meta.url).href)};
if (${limit}) limitHeapGrowth();
const ring = new Array(200_000);
let peak = 0;
for (let r = 0; r < 2_500_000; r++) {
  ring[r % ring.length] = { s: "y".repeat(30) + r, arr: [r, r + 1, r + 2] };
  if (r % 10_000 === 0) peak = Math.max(peak, v8.getHeapStatistics().total_heap_size);
}
console.log(Math.round(peak / 1048576));
`;

async function peakMb(limit: boolean): Promise<number> {
  const { stdout } = await run(process.execPath, [
    "--import",
    "tsx",
    "--input-type=module",
    "-e",
    CHURN(limit),
  ]);
  return Number(stdout.trim());
}

describe("heap growth limit (decision 0087)", () => {
  it("keeps the heap of a garbage-heavy burst well under V8's default growth", async () => {
    const [unlimited, limited] = await Promise.all([peakMb(false), peakMb(true)]);
    console.info(`heap peak: ${unlimited} MB by default, ${limited} MB limited`);
    // Alive: ~200k small objects (~30 MB). V8's default lets the heap reach several times that.
    expect(limited).toBeGreaterThan(0);
    expect(limited).toBeLessThan(unlimited * 0.8);
  }, 60_000);
});
