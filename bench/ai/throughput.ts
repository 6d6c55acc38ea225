/**
 * Throughput of the local analyzer on the whole SpamAssassin corpus (6,046 messages), one core
 * (Node's main thread). Parsing (postal-mime) is timed separately from analysis; the analysis
 * figure excludes parsing, the combined figure includes both. The first pass over the corpus is
 * reported as "cold" (the wink model loads and the JIT has not yet optimised the rules); the
 * headline figure is the steady state of a worker that analyses mail all day: the best of three
 * timed passes after it. Wall-clock rates suffer when other
 * processes share the cores (see the load average in the machine line), so the analysis rate per
 * CPU-second of this process is reported too.
 * Run: npx tsx bench/ai/throughput.ts
 */
import { performance } from "node:perf_hooks";
import { analyzeEmail } from "../../server/ai/local/analyze.ts";
import type { AnalyzerInput } from "../../server/ai/local/types.ts";
import { corpusIndex, readRaw, toAnalyzerInput } from "./corpus.ts";
import { machineLine, shouldAppend } from "./report.ts";
import { replaceResultsSection } from "./results-section.ts";

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export async function runThroughputBench(): Promise<{ markdown: string; analysisPerSecond: number }> {
  const { dir, messages } = corpusIndex();
  const raws = messages.map((m) => readRaw(dir, m));
  const inputs: AnalyzerInput[] = [];
  const parseTimes: number[] = [];
  const parseStart = performance.now();
  for (const raw of raws) {
    const t = performance.now();
    inputs.push(await toAnalyzerInput(raw));
    parseTimes.push(performance.now() - t);
  }
  const parseTotal = performance.now() - parseStart;

  const pass = () => {
    const times: number[] = [];
    const cpuStart = process.cpuUsage();
    const start = performance.now();
    for (const input of inputs) {
      const t = performance.now();
      analyzeEmail(input, {});
      times.push(performance.now() - t);
    }
    const cpu = process.cpuUsage(cpuStart);
    return { times, total: performance.now() - start, cpuSeconds: (cpu.user + cpu.system) / 1e6 };
  };
  const cold = pass();
  const warm = [pass(), pass(), pass()].sort((a, b) => a.total - b.total);
  const { times, total, cpuSeconds } = warm[0] ?? cold;
  const n = inputs.length;
  const sorted = [...times].sort((a, b) => a - b);
  const parseSorted = [...parseTimes].sort((a, b) => a - b);
  const combined = times.map((t, i) => t + (parseTimes[i] ?? 0)).sort((a, b) => a - b);
  const analysisPerSecond = n / (total / 1000);
  const fmt = (ms: number) => `${ms.toFixed(2)} ms`;
  const markdown = [
    "## AI: local analyzer throughput (one core)",
    "",
    machineLine(),
    "",
    `${n} SpamAssassin messages; parsing with postal-mime outside the analysis timing. Steady state: best of three passes after a first (cold) pass.`,
    "",
    "| stage | emails/s | p50 | p95 | max |",
    "| --- | --- | --- | --- | --- |",
    `| analysis only | ${analysisPerSecond.toFixed(0)} | ${fmt(percentile(sorted, 50))} | ${fmt(percentile(sorted, 95))} | ${fmt(sorted[sorted.length - 1] ?? 0)} |`,
    `| parse only | ${(n / (parseTotal / 1000)).toFixed(0)} | ${fmt(percentile(parseSorted, 50))} | ${fmt(percentile(parseSorted, 95))} | ${fmt(parseSorted[parseSorted.length - 1] ?? 0)} |`,
    `| analysis per CPU-second (process CPU time, robust to other load on the machine) | ${(n / cpuSeconds).toFixed(0)} | | | |`,
    `| analysis, cold first pass (model loading, JIT warming up) | ${(n / (cold.total / 1000)).toFixed(0)} | | | |`,
    `| parse + analysis | ${(n / ((parseTotal + total) / 1000)).toFixed(0)} | ${fmt(percentile(combined, 50))} | ${fmt(percentile(combined, 95))} | ${fmt(combined[combined.length - 1] ?? 0)} |`,
  ].join("\n");
  return { markdown, analysisPerSecond };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { markdown } = await runThroughputBench();
  process.stdout.write(`${markdown}\n`);
  if (shouldAppend()) replaceResultsSection("AI: local analyzer throughput", markdown);
}
