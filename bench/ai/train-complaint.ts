/**
 * Trains the complaint-or-information word model of server/ai/local/complaint (decision 0048) on
 * the dev intents and writes server/ai/local/models/complaint.json (decision 0059: the same data
 * gives the same bytes; the date moves only when the weights do). Held-out sets are never read.
 *
 * With ANALYZER_ROOT and --from N it first measures what the model would do for a new mailbox:
 * the intent rules of the checkout at ANALYZER_ROOT (from before round N, so they have not seen
 * the later rounds either) read the dev intents of round N on; a model trained only on the rounds
 * before N reads the mails those rules call information. It counts the complaints it mends and the
 * true information mails it breaks at each margin, with the analyzer's own scorer.
 *
 * Run: npx tsx bench/ai/train-complaint.ts
 *      ANALYZER_ROOT=<worktree> npx tsx bench/ai/train-complaint.ts --from 21 [--list] [--no-write]
 */
import { join } from "node:path";
import {
  COMPLAINT_MARGIN,
  type ComplaintModel,
  complaintLogOddsWith,
} from "../../server/ai/local/complaint/score.ts";
import { type EmailFeatures, extractFeatures } from "../../server/ai/local/features.ts";
import type { Intent } from "../../server/ai/local/intent.ts";
import type { AnalyzerContext, AnalyzerInput } from "../../server/ai/local/types.ts";
import type { UrgencyResult } from "../../server/ai/local/urgency.ts";
import { wordsAndPairs } from "../../server/ai/local/words-and-pairs.ts";
import { writeModelFile } from "./model-file.ts";
import { devExtraSets, loadMailSet, type MailSample, mailInput, withDevExtra } from "./trust-data.ts";

// A word seen in one mail only is that mail's, not a sign of a complaint.
const MIN_DOCS = 2;
const MARGINS = [2, 4, 6, 8];

interface Example {
  id: string;
  round: number;
  intent: Intent;
  tokens: Set<string>;
  input: AnalyzerInput;
}

const mailbox = loadMailSet("dev");
const examples: Example[] = withDevExtra<MailSample>("actions.json", "dev", mailbox.mail)
  .filter((m) => m.kind === "normal" && m.intent)
  .map((m) => {
    const input = mailInput(m, mailbox);
    const features = extractFeatures(input, mailbox.context);
    return {
      id: m.id,
      // Mail written before the numbered rounds counts as round 0.
      round: Number(/^r(\d+)/.exec(m.id)?.[1] ?? 0),
      intent: m.intent as Intent,
      tokens: wordsAndPairs(features.subject, features.text),
      input,
    };
  });

/**
 * Bernoulli naive Bayes of complaint against information, add-one smoothed, over the words seen
 * in at least MIN_DOCS dev mails of any intent. The log-odds of a mail is the bias plus the weight
 * of each known word it has.
 */
function trainModel(train: Example[]): ComplaintModel {
  const docs = { complaint: 0, information: 0 };
  const counts = new Map<string, { all: number; complaint: number; information: number }>();
  for (const e of train) {
    if (e.intent === "complaint" || e.intent === "information") docs[e.intent]++;
    for (const token of e.tokens) {
      const row = counts.get(token) ?? { all: 0, complaint: 0, information: 0 };
      row.all++;
      if (e.intent === "complaint" || e.intent === "information") row[e.intent]++;
      counts.set(token, row);
    }
  }
  let bias = Math.log(docs.complaint / docs.information);
  const weights = new Map<string, number>();
  for (const [token, row] of [...counts].sort((a, b) => a[0].localeCompare(b[0]))) {
    if (row.all < MIN_DOCS) continue;
    const pc = (row.complaint + 1) / (docs.complaint + 2);
    const pi = (row.information + 1) / (docs.information + 2);
    bias += Math.log(1 - pc) - Math.log(1 - pi);
    const w = Math.log(pc / (1 - pc)) - Math.log(pi / (1 - pi));
    weights.set(token, Math.round(w * 100) / 100);
  }
  return { bias: Math.round(bias * 100) / 100, weights };
}

async function measure(root: string, from: number): Promise<void> {
  const local = join(root, "server", "ai", "local");
  const old = {
    ...((await import(join(local, "features.ts"))) as {
      extractFeatures: (input: AnalyzerInput, context: AnalyzerContext) => EmailFeatures;
    }),
    ...((await import(join(local, "urgency.ts"))) as { assessUrgency: (f: EmailFeatures) => UrgencyResult }),
    ...((await import(join(local, "intent.ts"))) as {
      detectIntent: (f: EmailFeatures, u: UrgencyResult) => Intent;
    }),
  };
  const model = trainModel(examples.filter((e) => e.round < from));
  const test = examples.filter((e) => e.round >= from);
  const fallback = test.filter((e) => {
    const features = old.extractFeatures(e.input, mailbox.context);
    return old.detectIntent(features, old.assessUrgency(features)) === "information";
  });
  console.log(
    `rules at ${root}, model trained on ${examples.length - test.length} dev intents before round ${from}; ` +
      `of ${test.length} mails from round ${from} on, the rules call ${fallback.length} information ` +
      `(${fallback.filter((e) => e.intent === "information").length} truly, ` +
      `${fallback.filter((e) => e.intent === "complaint").length} complaints)`,
  );
  for (const margin of MARGINS) {
    const moved = fallback.filter((e) => complaintLogOddsWith(model, e.tokens) >= margin);
    const count = (intent: string) => moved.filter((e) => e.intent === intent).length;
    const other = moved.length - count("complaint") - count("information");
    console.log(
      `margin ${margin}${margin === COMPLAINT_MARGIN ? " (used)" : ""}: read as complaints ${moved.length}: ` +
        `${count("complaint")} complaints mended, ${count("information")} information mails broken, ${other} other asks`,
    );
    if (process.argv.includes("--list") && margin === COMPLAINT_MARGIN)
      for (const e of moved) console.log(`  ${e.id} (${e.intent})`);
  }
}

const fromArg = process.argv.indexOf("--from");
if (process.env.ANALYZER_ROOT && fromArg >= 0) {
  await measure(process.env.ANALYZER_ROOT, Number(process.argv[fromArg + 1]));
}

if (!process.argv.includes("--no-write")) {
  const full = trainModel(examples);
  const n = (intent: string) => examples.filter((e) => e.intent === intent).length;
  const { path, changed } = writeModelFile({
    model: "complaint",
    about:
      "Complaint-or-information word weights (Bernoulli naive Bayes log-odds, add-one smoothed) over the " +
      `words and word pairs seen in at least ${MIN_DOCS} dev mails; the bias is the prior log-odds plus every ` +
      "known word's weight for being absent, a word's weight what its presence adds. Decision 0048.",
    trainedOn: {
      sets: ["mail-dev.json", ...devExtraSets("actions.json").map((set) => set.name)].map(
        (name) => `bench/ai/labels/${name}`,
      ),
      examples:
        `${n("complaint")} complaints and ${n("information")} information mails among the ` +
        `${examples.length} dev intents (written for this project, never the held-out sets)`,
    },
    bias: full.bias,
    weights: full.weights,
  });
  console.log(`${full.weights.size} words kept -> ${path}${changed ? "" : " (weights unchanged)"}`);
}
