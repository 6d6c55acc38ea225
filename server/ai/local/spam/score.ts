import { sumOfMostTelling } from "../telling-words.ts";
import { SPAM_MODEL } from "./model.ts";
import { spamTokens } from "./tokens.ts";

/**
 * How strongly a mail's words say "unsolicited bulk mail" (log-odds, > 0 leans spam). A naive
 * Bayes reading in the manner of Graham's "A Plan for Spam": only the most telling words count,
 * so a long mail does not pile up evidence by length alone. Decision 0041.
 */

const TELLING_WORDS = 20;
const WEIGHTS = new Map<string, number>(Object.entries(SPAM_MODEL.weights));

export function spamLogOdds(subject: string, bodyText: string): number {
  return sumOfMostTelling(spamTokens(subject, bodyText), WEIGHTS, TELLING_WORDS);
}
