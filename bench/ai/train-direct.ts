/**
 * Trains the work-or-personal word weights of server/ai/local/direct (decision 0045) on the dev
 * direct-mail sets (bench/ai/labels/direct-mail.json's dev part and direct-mail-devN.json) and
 * writes server/ai/local/models/direct.json (decision 0059: the same data gives the same bytes; the
 * date moves only when the weights do). Held-out sets are never read: the bench measures on them.
 * The text is what the analyzer reads (its cleaned body), so training and use see the same words.
 * It also prints how the category does on each dev set with a model trained without that set
 * (each set is another mailbox and trade): the estimate for a new reader's mail.
 * Run: npx tsx bench/ai/train-direct.ts   (--list names the dev mails the model mends and breaks)
 */
import { categorize } from "../../server/ai/local/category.ts";
import { logOddsWith } from "../../server/ai/local/direct/score.ts";
import { type EmailFeatures, extractFeatures } from "../../server/ai/local/features.ts";
import { wordsAndPairs } from "../../server/ai/local/words-and-pairs.ts";
import { type TrainedModel, writeModelFile } from "./model-file.ts";
import { type DirectMail, directMailDevSets, mailInput } from "./trust-data.ts";

// A word seen in one mail only is that mail's, not a sign of work or private life.
const MIN_DOCS = 2;
const DEFAULT_OWNER = "sam.taylor@northwind-traders.com";

export interface Example {
  bucket: DirectMail["bucket"];
  features: EmailFeatures;
  tokens: Set<string>;
}

/** A labelled mail as the analyzer reads it (its cleaned body), with its words and pairs. */
export function example(mail: DirectMail): Example {
  const to = { receivedAt: new Date("2025-03-11T09:30:00Z"), userAddress: mail.owner ?? DEFAULT_OWNER };
  const input = mailInput({ id: "", kind: "normal", type: "direct", ...mail }, to);
  const features = extractFeatures(input, { userAddresses: [to.userAddress] });
  return { bucket: mail.bucket, features, tokens: wordsAndPairs(features.subject, features.text) };
}

/** Bernoulli naive Bayes log-likelihood ratio of each word's presence, add-one smoothed. */
export function train(examples: Example[]): { weights: Map<string, number>; work: number; personal: number } {
  const counts = new Map<string, { work: number; personal: number }>();
  const docs = { work: 0, personal: 0 };
  for (const e of examples) {
    docs[e.bucket]++;
    for (const token of e.tokens) {
      const row = counts.get(token) ?? { work: 0, personal: 0 };
      row[e.bucket]++;
      counts.set(token, row);
    }
  }
  const weights = new Map<string, number>();
  for (const [token, { work, personal }] of [...counts].sort((a, b) => a[0].localeCompare(b[0]))) {
    if (work + personal < MIN_DOCS) continue;
    const w = Math.log((work + 1) / (docs.work + 2)) - Math.log((personal + 1) / (docs.personal + 2));
    weights.set(token, Math.round(w * 100) / 100);
  }
  return { weights, ...docs };
}

/** The model file's record of weights trained on these sets (the fixture test trains a few mails). */
export function directModel(sets: Array<{ name: string; examples: Example[] }>): TrainedModel {
  const full = train(sets.flatMap((s) => s.examples));
  return {
    model: "direct",
    about:
      "Work-or-personal word weights: the log-likelihood ratio of a word's (or word pair's) presence in " +
      `work mail against private mail, add-one smoothed, for words seen in at least ${MIN_DOCS} mails. Decision 0045.`,
    trainedOn: {
      sets: sets.map(
        (set) => `bench/ai/labels/${set.name}${set.name === "direct-mail.json" ? " (dev part)" : ""}`,
      ),
      examples: `${full.work} work and ${full.personal} personal mails (written for this project, never the held-out sets)`,
    },
    weights: full.weights,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sets = directMailDevSets().map((s) => ({ name: s.name, examples: s.entries.map(example) }));

  const rows: string[] = [];
  let rulesRight = 0;
  let withModelRight = 0;
  let total = 0;
  let mended = 0;
  let broken = 0;
  for (const set of sets) {
    const model = train(sets.filter((s) => s !== set).flatMap((s) => s.examples)).weights;
    let rules = 0;
    let both = 0;
    for (const e of set.examples) {
      const byRules = categorize(e.features, () => 0).category === e.bucket;
      const byBoth =
        categorize(e.features, (subject, text, readerWords) => logOddsWith(model, subject, text, readerWords))
          .category === e.bucket;
      if (byRules) rules++;
      if (byBoth) both++;
      if (byBoth !== byRules && process.argv.includes("--list"))
        console.log(`${byBoth ? "mended" : "broken"}: ${e.bucket}: ${e.features.subject} (${set.name})`);
      if (byBoth && !byRules) mended++;
      if (byRules && !byBoth) broken++;
    }
    rulesRight += rules;
    withModelRight += both;
    total += set.examples.length;
    rows.push(`${set.name}: ${set.examples.length} mails, rules ${rules}, rules with the model ${both}`);
  }
  console.log(rows.join("\n"));
  console.log(
    `leave one set out: rules ${pct(rulesRight / total)} (tuned on every set, so in-sample), ` +
      `rules with a model not trained on the set ${pct(withModelRight / total)} ` +
      `(the model turned ${mended} wrong into right and ${broken} right into wrong)`,
  );

  const trained = directModel(sets);
  const { path, changed } = writeModelFile(trained);
  console.log(`${[...trained.weights].length} words kept -> ${path}${changed ? "" : " (weights unchanged)"}`);
}

function pct(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}
