/**
 * Runs every AI benchmark and appends one section per benchmark to bench/RESULTS.md.
 * Run: npx tsx bench/ai/run-all.ts   (add --no-append to print only)
 */
import { runBucketBench } from "./buckets.ts";
import { runPhishingBench } from "./phishing.ts";
import { appendResults, shouldAppend } from "./report.ts";
import { runSentimentBench } from "./sentiment.ts";
import { runThroughputBench } from "./throughput.ts";

const sections = [
  runSentimentBench().markdown,
  (await runBucketBench()).markdown,
  (await runPhishingBench()).markdown,
  (await runThroughputBench()).markdown,
];
for (const section of sections) {
  process.stdout.write(`${section}\n\n`);
  if (shouldAppend()) appendResults(section);
}
