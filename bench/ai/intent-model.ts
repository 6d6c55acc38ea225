/**
 * Decision 0046, measured again: would a word model of what a mail asks mend what the intent
 * rules miss on a new mailbox, without breaking true information mail?
 *
 * - Rules: `detectIntent` of the analyzer at ANALYZER_ROOT, a checkout from before the test rounds
 *   (so the rules have not seen them either).
 * - Model: Bernoulli naive Bayes over the words and word pairs of the subject and cleaned body
 *   (the work-or-personal model's tokens), trained on the dev intents of the rounds before FROM.
 * - Test: the dev intents of round FROM on. The model acts only where the rules fall back to
 *   information, and only when it leans to an ask by at least the margin (nats).
 *
 * Run: ANALYZER_ROOT=<worktree of the rules> npx tsx bench/ai/intent-model.ts [--from 21] [--list]
 * Held-out sets are never read.
 */
import { join } from "node:path";
import type { EmailFeatures } from "../../server/ai/local/features.ts";
import type { Intent } from "../../server/ai/local/intent.ts";
import type { AnalyzerContext, AnalyzerInput } from "../../server/ai/local/types.ts";
import type { UrgencyResult } from "../../server/ai/local/urgency.ts";
import { loadMailSet, type MailSample, mailInput, withDevExtra } from "./trust-data.ts";

const ROOT = process.env.ANALYZER_ROOT ?? join(import.meta.dirname, "..", "..");
const local = join(ROOT, "server", "ai", "local");
const { extractFeatures } = (await import(join(local, "features.ts"))) as {
  extractFeatures: (input: AnalyzerInput, context: AnalyzerContext) => EmailFeatures;
};
const { assessUrgency } = (await import(join(local, "urgency.ts"))) as {
  assessUrgency: (features: EmailFeatures) => UrgencyResult;
};
const { detectIntent } = (await import(join(local, "intent.ts"))) as {
  detectIntent: (features: EmailFeatures, urgency: UrgencyResult) => Intent;
};
// The model's words come from this checkout's reading of the mail, the same for every rule set.
const current = await import("../../server/ai/local/features.ts");
const { directTokens } = await import("../../server/ai/local/direct/tokens.ts");

const argValue = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const FROM = Number(argValue("--from") ?? 21);
const MARGINS = [0, 1, 2, 3, 4, 6, 8];
const MIN_DOCS = 2;

interface Example {
  id: string;
  round: number;
  intent: Intent;
  tokens: Set<string>;
  rules: Intent;
}

const set = loadMailSet("dev");
const examples: Example[] = withDevExtra<MailSample>("actions.json", "dev", set.mail)
  .filter((m) => m.kind === "normal" && m.intent)
  .map((m) => {
    const input = mailInput(m, set);
    const features = extractFeatures(input, set.context);
    const mine = current.extractFeatures(input, set.context);
    return {
      id: m.id,
      // Mail written before the numbered rounds counts as round 0.
      round: Number(/^r(\d+)/.exec(m.id)?.[1] ?? 0),
      intent: m.intent as Intent,
      tokens: directTokens(mine.subject, mine.text),
      rules: detectIntent(features, assessUrgency(features)),
    };
  });

const train = examples.filter((e) => e.round < FROM);
const test = examples.filter((e) => e.round >= FROM);

// Bernoulli naive Bayes: log P(class) + sum over the vocabulary of log P(word present or absent | class).
const classes = [...new Set(train.map((e) => e.intent))];
const docs = new Map<Intent, number>(classes.map((c) => [c, 0]));
const counts = new Map<string, Map<Intent, number>>();
for (const e of train) {
  docs.set(e.intent, (docs.get(e.intent) ?? 0) + 1);
  for (const t of e.tokens) {
    const row = counts.get(t) ?? new Map<Intent, number>();
    row.set(e.intent, (row.get(e.intent) ?? 0) + 1);
    counts.set(t, row);
  }
}
const vocabulary = [...counts].filter(([, row]) => [...row.values()].reduce((a, b) => a + b, 0) >= MIN_DOCS);
const absentBase = new Map<Intent, number>();
for (const c of classes) {
  const n = docs.get(c) ?? 0;
  let sum = Math.log(n / train.length);
  for (const [, row] of vocabulary) sum += Math.log(1 - ((row.get(c) ?? 0) + 1) / (n + 2));
  absentBase.set(c, sum);
}
const vocabularyRows = new Map(vocabulary);

function scores(tokens: Set<string>): Map<Intent, number> {
  const out = new Map<Intent, number>();
  for (const c of classes) {
    const n = docs.get(c) ?? 0;
    let s = absentBase.get(c) ?? 0;
    for (const t of tokens) {
      const row = vocabularyRows.get(t);
      if (!row) continue;
      const p = ((row.get(c) ?? 0) + 1) / (n + 2);
      s += Math.log(p) - Math.log(1 - p);
    }
    out.set(c, s);
  }
  return out;
}

const modelAlone = test.filter((e) => {
  const s = scores(e.tokens);
  return [...s].sort((a, b) => b[1] - a[1])[0]?.[0] === e.intent;
}).length;
const rulesRight = test.filter((e) => e.rules === e.intent).length;
const fallback = test.filter((e) => e.rules === "information");
console.log(
  `rules at ${ROOT}; trained on ${train.length} dev intents (rounds before ${FROM}), tested on ${test.length} (rounds ${FROM} on)`,
);
console.log(
  `rules right ${rulesRight} of ${test.length}; model alone right ${modelAlone}; rules fell back to information on ${fallback.length} (${fallback.filter((e) => e.intent === "information").length} truly information)`,
);

for (const only of [undefined, "complaint"] as const) {
  for (const margin of MARGINS) {
    let mended = 0;
    let broken = 0;
    let moved = 0;
    let otherAsk = 0;
    const listed: string[] = [];
    for (const e of fallback) {
      const s = scores(e.tokens);
      const info = s.get("information") ?? 0;
      const [best, bestScore] = [...s]
        .filter(([c]) => c !== "information" && c !== "notification" && (!only || c === only))
        .sort((a, b) => b[1] - a[1])[0] ?? ["information", 0];
      if (bestScore - info < margin) continue;
      moved++;
      if (best === e.intent) mended++;
      if (e.intent === "information") broken++;
      else if (best !== e.intent) otherAsk++;
      listed.push(`${e.id} ${e.intent} -> ${best}`);
    }
    console.log(
      `${only ?? "any ask"}, margin ${margin}: moved ${moved}, mended ${mended}, broke ${broken} true information mails, ${otherAsk} to another ask than the label's`,
    );
    if (process.argv.includes("--list") && margin === 2) console.log(listed.join("\n"));
  }
}
