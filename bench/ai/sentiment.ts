/**
 * Sentiment accuracy of the local analyzer's sentiment component beside the `sentiment`
 * package's AFINN scorer, on the UCI amazon / yelp / imdb sentences (binary labels).
 *
 * Method (honest about tuning): the shipped weights and the phrase lexicon were fitted/curated on
 * yelp ONLY, so amazon and imdb are held out and yelp is in-sample. As a second check every set
 * is also scored by leave-one-dataset-out: weights refitted on the other two sets, same features.
 * Binary mapping: positive when the log-odds score is > 0 (neutral is decided by that sign).
 * AFINN baseline, two tie rules: "score > 0" (ties negative; the stronger rule on these sets)
 * and the package's own validate rule "comparative >= 0" (ties positive; gives its README figures).
 * Run: npx tsx bench/ai/sentiment.ts
 */
import Sentiment from "sentiment";
import { scoreSentimentFeatures } from "../../server/ai/local/sentiment.ts";
import { fitLogistic, predictLogit } from "./logistic.ts";
import { machineLine, pct, shouldAppend } from "./report.ts";
import { replaceResultsSection } from "./results-section.ts";
import { SENTIMENT_SETS, type SentimentSet } from "./sentiment-data.ts";
import { type FeatureRow, featureRows } from "./sentiment-features.ts";

export interface SentimentRow {
  set: SentimentSet;
  n: number;
  afinnStrict: number;
  afinnPackageRule: number;
  local: number;
  localLodo: number;
  heldOut: boolean;
}

function accuracy(rows: FeatureRow[], predict: (row: FeatureRow) => 0 | 1): number {
  let correct = 0;
  for (const row of rows) if (predict(row) === row.label) correct++;
  return correct / rows.length;
}

export function runSentimentBench(): { rows: SentimentRow[]; markdown: string } {
  const afinn = new Sentiment();
  const data = new Map<SentimentSet, FeatureRow[]>();
  for (const set of SENTIMENT_SETS) data.set(set, featureRows(set));
  const rows: SentimentRow[] = [];
  for (const set of SENTIMENT_SETS) {
    const test = data.get(set) ?? [];
    const train = SENTIMENT_SETS.filter((s) => s !== set).flatMap((s) => data.get(s) ?? []);
    const lodo = fitLogistic(
      train.map((r) => r.features),
      train.map((r) => r.label),
    );
    rows.push({
      set,
      n: test.length,
      afinnStrict: accuracy(test, (r) => (afinn.analyze(r.text).score > 0 ? 1 : 0)),
      afinnPackageRule: accuracy(test, (r) => (afinn.analyze(r.text).comparative >= 0 ? 1 : 0)),
      local: accuracy(test, (r) => (scoreSentimentFeatures(r.features).score > 0 ? 1 : 0)),
      localLodo: accuracy(test, (r) => (predictLogit(lodo, r.features) > 0 ? 1 : 0)),
      heldOut: set !== "yelp",
    });
  }
  const lines = [
    "## AI: sentiment (local analyzer vs AFINN)",
    "",
    machineLine(),
    "",
    "Shipped weights and phrase cues tuned on yelp only; amazon and imdb are held out. LODO = weights refitted on the other two sets (leave-one-dataset-out); the yelp LODO figure still uses the yelp-curated phrase cues, so only amazon and imdb are fully held out. Binary mapping: positive when the score is > 0 (neutral decided by sign). AFINN baseline shown with both tie rules; the margin is against the stronger one (score > 0).",
    "",
    "| set | n | AFINN score>0 | AFINN package rule (>=0) | local (shipped) | local LODO | margin vs AFINN score>0 |",
    "| --- | --- | --- | --- | --- | --- | --- |",
    ...rows.map(
      (r) =>
        `| ${r.set}${r.heldOut ? " (held out)" : " (tuning set)"} | ${r.n} | ${pct(r.afinnStrict)} | ${pct(r.afinnPackageRule)} | ${pct(r.local)} | ${pct(r.localLodo)} | ${((r.local - r.afinnStrict) * 100).toFixed(1)} pts |`,
    ),
  ];
  return { rows, markdown: lines.join("\n") };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { markdown } = runSentimentBench();
  process.stdout.write(`${markdown}\n`);
  if (shouldAppend()) replaceResultsSection("AI: sentiment", markdown);
}
