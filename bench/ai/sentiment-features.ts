import { parseText } from "../../server/ai/local/nlp.ts";
import { sentimentFeatures } from "../../server/ai/local/sentiment.ts";
import { type LabelledSentence, loadSentimentSet, type SentimentSet } from "./sentiment-data.ts";

export interface FeatureRow {
  text: string;
  label: 0 | 1;
  features: number[];
}

/** Feature rows for one set, computed with exactly the analyzer's feature extractor. */
export function featureRows(name: SentimentSet): FeatureRow[] {
  return loadSentimentSet(name).map((row: LabelledSentence) => ({
    ...row,
    features: sentimentFeatures(row.text, parseText(row.text)),
  }));
}
