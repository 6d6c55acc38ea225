import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** The UCI Sentiment Labelled Sentences the `sentiment` package ships (1,001 each). */
export const SENTIMENT_SETS = ["amazon", "yelp", "imdb"] as const;
export type SentimentSet = (typeof SENTIMENT_SETS)[number];

export interface LabelledSentence {
  text: string;
  /** 1 positive, 0 negative. */
  label: 0 | 1;
}

export function loadSentimentSet(name: SentimentSet): LabelledSentence[] {
  const require = createRequire(import.meta.url);
  const dir = join(dirname(require.resolve("sentiment/package.json")), "test", "fixtures");
  const rows = JSON.parse(readFileSync(join(dir, `${name}.json`), "utf8")) as Array<{
    text: string;
    class: number;
  }>;
  return rows.map((row) => ({ text: row.text, label: row.class === 1 ? 1 : 0 }));
}
