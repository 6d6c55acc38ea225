import { declareModel } from "../models/load.ts";
import { wordsAndPairs } from "../words-and-pairs.ts";

/**
 * How strongly a person's mail reads as a complaint rather than plain information (log-odds),
 * from a Bernoulli naive Bayes word model trained on the dev intents (decision 0048). The rules
 * in intent.ts come first; this reads only the mail they would call information, which is where
 * complaints told without complaint words ended up.
 */

/** Log-odds a fallback must reach to be read as a complaint: measured, not tuned (decision 0048). */
export const COMPLAINT_MARGIN = 6;

export interface ComplaintModel {
  /** Prior log-odds plus every known word's weight for being absent. */
  bias: number;
  /** Per known word: what its presence adds, net of its absence already in the bias. */
  weights: ReadonlyMap<string, number>;
}

// server/ai/local/models/complaint.json, written by bench/ai/train-complaint.ts.
const model: () => ComplaintModel = declareModel("complaint", { bias: true });

export function complaintLogOdds(subject: string, text: string): number {
  return complaintLogOddsWith(model(), wordsAndPairs(subject, text));
}

/** The same reading with another model (the training bench's models trained on earlier rounds). */
export function complaintLogOddsWith(model: ComplaintModel, tokens: Iterable<string>): number {
  let sum = model.bias;
  for (const token of tokens) sum += model.weights.get(token) ?? 0;
  return sum;
}
