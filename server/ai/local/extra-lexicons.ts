import { createRequire } from "node:module";

/**
 * Two more English polarity lexicons shipped by `natural`: ML-Senticon (24,839 lemmas scored
 * -1..1, built from WordNet) and the Pattern project's adjective lexicon (1,528 words, -1..1,
 * collected from product reviews). AFINN and VADER are social-media lexicons; these two cover the
 * plain descriptive vocabulary of longer prose ("mediocre", "riveting", "tedious"), which is
 * where the AFINN-style features missed most (movie and product reviews in bench/ai/sentiment.ts).
 * Loaded on first use: together about 4 MB of JSON that a web-only process never needs.
 */
export interface ExtraLexicons {
  senticon: ReadonlyMap<string, number>;
  pattern: ReadonlyMap<string, number>;
}

let loaded: ExtraLexicons | undefined;

function toMap<T>(entries: Record<string, T>, score: (entry: T) => number): Map<string, number> {
  const map = new Map<string, number>();
  for (const [word, entry] of Object.entries(entries)) {
    const value = score(entry);
    if (Number.isFinite(value) && value !== 0) map.set(word, value);
  }
  return map;
}

export function extraLexicons(): ExtraLexicons {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  const senticon = require("natural/lib/natural/sentiment/English/senticon_en.json") as Record<
    string,
    { pol: string }
  >;
  const pattern = require("natural/lib/natural/sentiment/English/pattern-sentiment-en.json") as Record<
    string,
    { polarity: string }
  >;
  loaded = {
    senticon: toMap(senticon, (e) => Number(e.pol)),
    pattern: toMap(pattern, (e) => Number(e.polarity)),
  };
  return loaded;
}
