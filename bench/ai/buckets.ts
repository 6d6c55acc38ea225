/**
 * Bucket and category agreement with the hand labels, on two samples reported separately:
 *   held-out  bench/ai/labels/corpus-buckets-heldout.json, drawn after the rules were tuned and
 *             labelled blind (the unbiased figure)
 *   in-sample bench/ai/labels/corpus-buckets.json, the sample the category rules were tuned on
 * For each: (a) the spec's bucket classifier (server/mail/bucket-classifier.ts) fed the analyzer's
 * category, (b) the analyzer's category itself.
 * Run: npx tsx bench/ai/buckets.ts   (updates its section of bench/RESULTS.md; --no-append to print
 *      only; --errors also lists each held-out disagreement)
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { analyzeEmail } from "../../server/ai/local/analyze.ts";
import { classifyBucket } from "../../server/mail/bucket-classifier.ts";
import { corpusIndex, readRaw, toAnalyzerInput } from "./corpus.ts";
import { machineLine, pct, shouldAppend } from "./report.ts";
import { replaceResultsSection } from "./results-section.ts";

interface Label {
  group: string;
  id: string;
  bucket: string;
  category: string;
  note: string;
}

export interface Agreement {
  accuracy: number;
  n: number;
  perClass: Array<{ label: string; support: number; predicted: number; precision: number; recall: number }>;
}

export function agreement(pairs: ReadonlyArray<{ truth: string; predicted: string }>): Agreement {
  const labels = [...new Set(pairs.flatMap((p) => [p.truth, p.predicted]))].sort();
  const perClass = labels.map((label) => {
    const tp = pairs.filter((p) => p.truth === label && p.predicted === label).length;
    const support = pairs.filter((p) => p.truth === label).length;
    const predicted = pairs.filter((p) => p.predicted === label).length;
    return {
      label,
      support,
      predicted,
      precision: predicted === 0 ? 0 : tp / predicted,
      recall: support === 0 ? 0 : tp / support,
    };
  });
  const correct = pairs.filter((p) => p.truth === p.predicted).length;
  return { accuracy: pairs.length === 0 ? 0 : correct / pairs.length, n: pairs.length, perClass };
}

function table(title: string, result: Agreement): string[] {
  return [
    `**${title}**: accuracy ${pct(result.accuracy)} (n=${result.n})`,
    "",
    "| class | labelled | predicted | precision | recall |",
    "| --- | --- | --- | --- | --- |",
    ...result.perClass.map(
      (c) =>
        `| ${c.label} | ${c.support} | ${c.predicted} | ${c.predicted ? pct(c.precision) : "n/a"} | ${c.support ? pct(c.recall) : "n/a"} |`,
    ),
    "",
  ];
}

/** The disagreements, most frequent first: "labelled → predicted ×n". */
function confusions(pairs: ReadonlyArray<{ truth: string; predicted: string }>): string {
  const counts = new Map<string, number>();
  for (const p of pairs) {
    if (p.truth !== p.predicted) {
      const key = `${p.truth} → ${p.predicted}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  const sorted = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return sorted.map(([key, n]) => `${key} ×${n}`).join(", ") || "none";
}

interface Pairs {
  bucket: Array<{ truth: string; predicted: string }>;
  category: Array<{ truth: string; predicted: string }>;
  /** One line per message whose bucket or category disagrees with its label (for --errors). */
  errors: string[];
}

async function measure(labelFile: string): Promise<Pairs> {
  const labels = JSON.parse(readFileSync(join(import.meta.dirname, "labels", labelFile), "utf8")) as Label[];
  const { dir } = corpusIndex();
  const pairs: Pairs = { bucket: [], category: [], errors: [] };
  for (const label of labels) {
    const input = await toAnalyzerInput(
      readRaw(dir, { group: label.group, id: label.id, path: `${label.group}/${label.id}` }),
    );
    const analysis = analyzeEmail(input, {});
    const from = input.from.name ? `${input.from.name} <${input.from.address}>` : input.from.address;
    const bucket =
      classifyBucket({
        from,
        subject: input.subject,
        snippet: analysis.summary,
        aiAnalysis: { category: analysis.category },
      }) ?? "other";
    pairs.bucket.push({ truth: label.bucket, predicted: bucket });
    pairs.category.push({ truth: label.category, predicted: analysis.category });
    if (bucket !== label.bucket || analysis.category !== label.category) {
      pairs.errors.push(
        `${label.group}/${label.id.slice(0, 5)} labelled ${label.bucket}/${label.category}, got ${bucket}/${analysis.category} | ${input.subject.slice(0, 60)} | ${label.note}`,
      );
    }
  }
  return pairs;
}

export const BUCKET_SECTION = "AI: bucket and category agreement";

export async function runBucketBench(): Promise<{
  markdown: string;
  bucket: Agreement;
  category: Agreement;
  heldOut: { bucket: Agreement; category: Agreement };
  heldOutErrors: string[];
}> {
  const heldOutPairs = await measure("corpus-buckets-heldout.json");
  const inSamplePairs = await measure("corpus-buckets.json");
  const heldOut = { bucket: agreement(heldOutPairs.bucket), category: agreement(heldOutPairs.category) };
  const bucket = agreement(inSamplePairs.bucket);
  const category = agreement(inSamplePairs.category);
  const markdown = [
    `## ${BUCKET_SECTION} (hand-labelled corpus samples)`,
    "",
    machineLine(),
    "",
    "Guideline: bench/ai/labels/README.md. Two samples of the SpamAssassin corpus, reported separately.",
    "",
    `### Held-out, labelled blind (n=${heldOut.bucket.n})`,
    "",
    "bench/ai/labels/corpus-buckets-heldout.json: drawn after the category rules were tuned (disjoint offset rule, `heldOutSample()` in bench/ai/sample.ts; hard-ham-1 sampled at twice the rate) and labelled by reading each message before the analyzer was run on it. No rule was tuned on its messages. This is the figure to quote. History: 79.8% after issue 18 part 3; in part 4 a first run showed 78.6% (ads read as personal); that regression was found and fixed on dev spam (corpus spam outside every held-out set) and this sample was run once more (79.4%). After issue 18 part 5 it was run after dev rounds 6 and 7 (79.8%) and again after round 8, for the figure below.",
    "",
    ...table("(a) spec bucket classifier fed the analyzer's category, held-out", heldOut.bucket),
    `Bucket disagreements (labelled → predicted): ${confusions(heldOutPairs.bucket)}.`,
    "",
    ...table("(b) analyzer category, held-out", heldOut.category),
    `Category disagreements (labelled → predicted): ${confusions(heldOutPairs.category)}.`,
    "",
    `### In-sample (n=${bucket.n}): the sample the rules were tuned on`,
    "",
    "bench/ai/labels/corpus-buckets.json. The category rules were revised after reading this sample's errors (the first run scored 54.5% on both), so these figures are optimistic.",
    "",
    ...table("(a) spec bucket classifier fed the analyzer's category, in-sample", bucket),
    ...table("(b) analyzer category, in-sample", category),
  ].join("\n");
  return { markdown, bucket, category, heldOut, heldOutErrors: heldOutPairs.errors };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { markdown, heldOutErrors } = await runBucketBench();
  process.stdout.write(`${markdown}\n`);
  if (process.argv.includes("--errors"))
    process.stdout.write(`\nHeld-out disagreements:\n${heldOutErrors.join("\n")}\n`);
  if (shouldAppend()) replaceResultsSection(BUCKET_SECTION, markdown);
}
