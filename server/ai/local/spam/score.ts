import { declareModel } from "../models/load.ts";
import { sumOfMostTelling } from "../telling-words.ts";
import { spamTokens } from "./tokens.ts";

/**
 * How strongly a mail's words say "unsolicited bulk mail" (log-odds, > 0 leans spam). A naive
 * Bayes reading in the manner of Graham's "A Plan for Spam": only the most telling words count,
 * so a long mail does not pile up evidence by length alone. Decision 0041.
 */

const TELLING_WORDS = 20;
// server/ai/local/models/spam.json, written by bench/ai/train-spam.ts.
const model = declareModel("spam", { bias: false });

export function spamLogOdds(subject: string, bodyText: string): number {
  return sumOfMostTelling(spamTokens(subject, bodyText), model().weights, TELLING_WORDS);
}
