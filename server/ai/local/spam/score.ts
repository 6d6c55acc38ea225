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
  const found: number[] = [];
  for (const token of spamTokens(subject, bodyText)) {
    const w = WEIGHTS.get(token);
    if (w !== undefined) found.push(w);
  }
  found.sort((a, b) => Math.abs(b) - Math.abs(a));
  let sum = 0;
  for (const w of found.slice(0, TELLING_WORDS)) sum += w;
  return sum;
}
