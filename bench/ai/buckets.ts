/**
 * Bucket and category agreement with the hand labels (bench/ai/labels/corpus-buckets.json):
 *   (a) the spec's bucket classifier (server/mail/bucket-classifier.ts) fed the analyzer's category
 *   (b) the analyzer's category itself
 * Run: npx tsx bench/ai/buckets.ts
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { analyzeEmail } from "../../server/ai/local/analyze.ts";
import { classifyBucket } from "../../server/mail/bucket-classifier.ts";
import { corpusIndex, readRaw, toAnalyzerInput } from "./corpus.ts";
import { appendResults, machineLine, pct, shouldAppend } from "./report.ts";

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

export async function runBucketBench(): Promise<{
  markdown: string;
  bucket: Agreement;
  category: Agreement;
}> {
  const labels = JSON.parse(
    readFileSync(join(import.meta.dirname, "labels", "corpus-buckets.json"), "utf8"),
  ) as Label[];
  const { dir } = corpusIndex();
  const bucketPairs: Array<{ truth: string; predicted: string }> = [];
  const categoryPairs: Array<{ truth: string; predicted: string }> = [];
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
    bucketPairs.push({ truth: label.bucket, predicted: bucket });
    categoryPairs.push({ truth: label.category, predicted: analysis.category });
  }
  const bucket = agreement(bucketPairs);
  const category = agreement(categoryPairs);
  const markdown = [
    "## AI: bucket and category agreement (hand-labelled corpus sample)",
    "",
    machineLine(),
    "",
    "Labels: bench/ai/labels/corpus-buckets.json (guideline in bench/ai/labels/README.md).",
    "",
    "In-sample: the category rules were revised after reading this sample's errors (the first run scored 54.5% on both). A fresh labelled sample is needed for an unbiased figure.",
    "",
    ...table("(a) spec bucket classifier fed the analyzer's category", bucket),
    ...table("(b) analyzer category", category),
  ].join("\n");
  return { markdown, bucket, category };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { markdown } = await runBucketBench();
  process.stdout.write(`${markdown}\n`);
  if (shouldAppend()) appendResults(markdown);
}
