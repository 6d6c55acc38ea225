/**
 * Fits the sentiment weights of server/ai/local/sentiment.ts on the yelp set ONLY and writes
 * server/ai/local/models/sentiment.json (decision 0059: the same data gives the same bytes; the
 * date moves only when the weights do). amazon and imdb stay held out for bench/ai/sentiment.ts.
 * Run: npx tsx bench/ai/train-sentiment.ts
 */
import { SENTIMENT_FEATURES } from "../../server/ai/local/sentiment.ts";
import { fitLogistic } from "./logistic.ts";
import { packageSet, writeModelFile } from "./model-file.ts";
import { featureRows } from "./sentiment-features.ts";

const rows = featureRows("yelp");
const model = fitLogistic(
  rows.map((r) => r.features),
  rows.map((r) => r.label),
);
const round = (n: number) => Math.round(n * 1000) / 1000;
const { path, changed } = writeModelFile({
  model: "sentiment",
  about:
    "Logistic-regression weights of the sentiment features (VADER, wink, AFINN with negation and " +
    "contrast, phrase cues, exclamation marks, ML-Senticon, Pattern): z = bias + sum of weight times feature.",
  trainedOn: {
    sets: [packageSet("sentiment", "test/fixtures/yelp.json")],
    examples: `${rows.length} yelp review sentences (UCI Sentiment Labelled Sentences); amazon and imdb held out`,
  },
  bias: round(model.bias),
  weights: SENTIMENT_FEATURES.map((feature, i) => [feature, round(model.weights[i] ?? 0)] as const),
});
console.log(`${SENTIMENT_FEATURES.length} weights -> ${path}${changed ? "" : " (weights unchanged)"}`);
