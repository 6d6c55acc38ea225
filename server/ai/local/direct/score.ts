import { sumOfMostTelling } from "../telling-words.ts";
import { DIRECT_MODEL } from "./model.ts";
import { directTokens } from "./tokens.ts";

/**
 * How strongly a person's mail reads as the reader's work rather than their private life
 * (log-odds, > 0 leans work), from a naive Bayes word model trained on labelled direct mail of
 * many trades (decision 0045). Only the most telling words count, so a long mail does not pile up
 * evidence by length alone.
 */

const TELLING_WORDS = 30;
const WEIGHTS = new Map<string, number>(DIRECT_MODEL.weights);

export function workLogOdds(subject: string, text: string): number {
  return logOddsWith(WEIGHTS, subject, text);
}

/** The same reading with other weights (the training bench's leave-one-set-out models). */
export function logOddsWith(weights: ReadonlyMap<string, number>, subject: string, text: string): number {
  return sumOfMostTelling(directTokens(subject, text), weights, TELLING_WORDS);
}
