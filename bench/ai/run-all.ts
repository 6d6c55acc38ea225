/**
 * Runs every AI benchmark and writes one section per benchmark to bench/RESULTS.md, replacing
 * that benchmark's previous section (matched by its heading).
 * Run: npx tsx bench/ai/run-all.ts   (add --no-append to print only)
 */
import { runBucketBench } from "./buckets.ts";
import { runPhishingBench } from "./phishing.ts";
import { shouldAppend } from "./report.ts";
import { replaceResultsSection } from "./results-section.ts";
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
  const heading = section.split("\n")[0]?.replace(/^## /, "") ?? "";
  if (shouldAppend() && heading) replaceResultsSection(heading, section);
}
