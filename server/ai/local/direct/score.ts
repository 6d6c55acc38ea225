import { declareModel } from "../models/load.ts";
import { sumOfMostTelling } from "../telling-words.ts";
import { wordsAndPairs } from "../words-and-pairs.ts";

/**
 * How strongly a person's mail reads as the reader's work rather than their private life
 * (log-odds, > 0 leans work), from a naive Bayes word model trained on labelled direct mail of
 * many trades (decision 0045). Only the most telling words count, so a long mail does not pile up
 * evidence by length alone.
 */

const TELLING_WORDS = 30;
// server/ai/local/models/direct.json, written by bench/ai/train-direct.ts.
const model = declareModel("direct", { bias: false });

/**
 * `readerWords` are words that are this reader's trade or business (decision 0043): what the
 * model learnt of them in other people's mail ("booster" is a pet owner's private errand) does not
 * hold for this reader (at a vet's it is the job), so they are left out of the reading.
 */
export function workLogOdds(subject: string, text: string, readerWords: readonly RegExp[] = []): number {
  return logOddsWith(model().weights, subject, text, readerWords);
}

/** The same reading with other weights (the training bench's leave-one-set-out models). */
export function logOddsWith(
  weights: ReadonlyMap<string, number>,
  subject: string,
  text: string,
  readerWords: readonly RegExp[] = [],
): number {
  let tokens: Iterable<string> = wordsAndPairs(subject, text);
  if (readerWords.length > 0) tokens = [...tokens].filter((t) => !readerWords.some((w) => w.test(t)));
  return sumOfMostTelling(tokens, weights, TELLING_WORDS);
}
