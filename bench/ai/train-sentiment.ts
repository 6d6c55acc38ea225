/**
 * Fits the sentiment weights on the yelp set ONLY and prints them for
 * server/ai/local/sentiment-model.ts. amazon and imdb stay held out for bench/ai/sentiment.ts.
 * Run: npx tsx bench/ai/train-sentiment.ts
 */
import { fitLogistic } from "./logistic.ts";
import { featureRows } from "./sentiment-features.ts";

const rows = featureRows("yelp");
const model = fitLogistic(
  rows.map((r) => r.features),
  rows.map((r) => r.label),
);
const round = (n: number) => Math.round(n * 1000) / 1000;
process.stdout.write(
  `  trainedOn: "yelp",\n  weights: [${model.weights.map(round).join(", ")}],\n  bias: ${round(model.bias)},\n`,
);
