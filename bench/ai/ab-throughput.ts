/**
 * Same-process A/B of the local analyzer's speed against an older checkout: a quarter of the
 * SpamAssassin corpus (1,512 messages) analysed by each in alternating passes, CPU time of this
 * process per pass, so both sides share the machine's load. Prints analyses per CPU-second and the
 * ratio (new / old) for three rounds after one warm-up pass each.
 * Run: BASE_ROOT=/path/to/old/checkout npx tsx bench/ai/ab-throughput.ts
 */
import { join } from "node:path";
import type { AnalyzerInput } from "../../server/ai/local/types.ts";
import { corpusIndex, readRaw, toAnalyzerInput } from "./corpus.ts";

type Analyze = (input: AnalyzerInput, context?: object) => unknown;
const baseRoot = process.env.BASE_ROOT;
if (!baseRoot) throw new Error("BASE_ROOT must name an older checkout (with node_modules)");
const base = (await import(join(baseRoot, "server/ai/local/analyze.ts"))) as { analyzeEmail: Analyze };
const next = (await import("../../server/ai/local/analyze.ts")) as { analyzeEmail: Analyze };

const { dir, messages } = corpusIndex();
const inputs: AnalyzerInput[] = [];
for (const m of messages.filter((_m, i) => i % 4 === 0)) inputs.push(await toAnalyzerInput(readRaw(dir, m)));

function cpuMs(analyze: Analyze): number {
  const start = process.cpuUsage();
  for (const input of inputs) analyze(input, {});
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

cpuMs(base.analyzeEmail);
cpuMs(next.analyzeEmail);
for (let round = 1; round <= 3; round++) {
  const old = cpuMs(base.analyzeEmail);
  const now = cpuMs(next.analyzeEmail);
  const rate = (ms: number) => ((inputs.length / ms) * 1000).toFixed(0);
  process.stdout.write(
    `round ${round}: old ${rate(old)}/CPU-s, new ${rate(now)}/CPU-s, new/old ${(old / now).toFixed(2)}\n`,
  );
}
