/**
 * The targets of issue 18 ("AI that users can trust"), each on held-out data, next to the figures
 * of the analyzer before that work (bench/ai/labels/previous-figures.json):
 *   safety   modern phishing recall >= 85% at precision >= 95%; no compliance action, no high
 *            urgency or importance, and human-readable reasons on every flagged mail
 *   actions  suggested actions and response time fit what the mail asks (question, request,
 *            deadline, meeting, complaint, information, notification)
 *   labels   the shown sentiment label beats VADER's, two classes and three
 *   buckets  direct person-to-person mail in work/personal; list-delivered spam not in Newsletters
 *   text     summaries free of quoted, forwarded and pasted text and of furniture; templates free
 *            of placeholders, glued sentences and quoted list tags
 * Run: npx tsx bench/ai/trust.ts            held-out figures, updates bench/RESULTS.md
 *      npx tsx bench/ai/trust.ts --dev      dev figures only (the tuning mode; never reads held-out
 *                                           data, never writes RESULTS.md); --errors lists failures
 *      ANALYZER_ROOT=/path/to/old/checkout npx tsx bench/ai/trust.ts --record-previous
 *                                           measures an older analyzer and writes previous-figures.json
 *                                           (--record-part1 to --record-part11b: the later analyzers,
 *                                           listed with their commits in EARLIER_ANALYZERS)
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import vader from "vader-sentiment";
import type { EmailAnalysis, ResponseStyle } from "../../contract/ai.ts";
import type { AnalyzerContext, AnalyzerInput } from "../../server/ai/local/types.ts";
import { readRaw, toAnalyzerInput } from "./corpus.ts";
import { shouldAppend } from "./report.ts";
import { replaceResultsSection } from "./results-section.ts";
import { loadSentimentSet } from "./sentiment-data.ts";
import {
  corpusHam,
  type DirectMail,
  directMail,
  emailSentences,
  LATER_SET_NAMES,
  LATER_SETS,
  laterHeldout,
  listSpam,
  loadMailSet,
  type MailSample,
  mailInput,
  requestSentences,
  type SentimentLabel,
  type Split,
  walletDomains,
  withDevExtra,
} from "./trust-data.ts";
import { TRUST_SECTION, trustMarkdown } from "./trust-report.ts";

// The analyzer under test: this checkout's, or an older one's for the previous figures.
const ROOT = process.env.ANALYZER_ROOT ?? join(import.meta.dirname, "..", "..");
type Analyze = (input: AnalyzerInput, context?: AnalyzerContext) => EmailAnalysis;
const { analyzeEmail } = (await import(join(ROOT, "server/ai/local/analyze.ts"))) as {
  analyzeEmail: Analyze;
};
const { classifyBucket } = (await import(join(ROOT, "server/mail/bucket-classifier.ts"))) as {
  classifyBucket: (e: {
    from: string;
    subject: string;
    snippet: string;
    aiAnalysis?: { category?: string };
  }) => string | null;
};
const drafting = (await import(join(ROOT, "server/ai/drafting/local-replies.ts"))) as {
  draftRepliesLocally: (source: unknown, prefs: unknown, style: ResponseStyle, learned?: unknown) => string[];
  composeLocally: (subject: string, draft: string, prefs: unknown) => string[];
};

/**
 * The analyzers the table compares with, oldest first: the column, the flag that records one
 * (run with ANALYZER_ROOT at that commit, or on this checkout before the next change) and its file.
 */
const EARLIER_ANALYZERS = [
  { label: "before", flag: "--record-previous", file: "previous-figures.json" }, // 7f768c1, before issue 18
  { label: "part 1", flag: "--record-part1", file: "part1-figures.json" }, // cbb037a
  { label: "part 2", flag: "--record-part2", file: "part2-figures.json" }, // 3a1e4a6
  { label: "part 3", flag: "--record-part3", file: "part3-figures.json" }, // 05a1509
  { label: "part 4", flag: "--record-part4", file: "part4-figures.json" }, // c0d9b62
  { label: "part 5a", flag: "--record-part5a", file: "part5a-figures.json" }, // a89f6ac, with the seventh set
  { label: "part 5", flag: "--record-part5", file: "part5-figures.json" }, // 566ea1e, with the eighth set
  { label: "part 6a", flag: "--record-part6a", file: "part6a-figures.json" }, // ee28437, with the ninth set
  { label: "part 6", flag: "--record-part6", file: "part6-figures.json" }, // ab0a465, with the tenth set
  { label: "part 7a", flag: "--record-part7a", file: "part7a-figures.json" }, // 6c81851, with the eleventh set
  { label: "part 7b", flag: "--record-part7b", file: "part7b-figures.json" }, // 095f7d2, after round 13, with the twelfth set
  { label: "part 7", flag: "--record-part7", file: "part7-figures.json" }, // b7fa6bd, after round 14, before the word model
  { label: "part 8a", flag: "--record-part8a", file: "part8a-figures.json" }, // 97d2b55, the word model on 598 dev mails
  { label: "part 8b", flag: "--record-part8b", file: "part8b-figures.json" }, // d350ff8, the word model on 748 dev mails
  { label: "part 8", flag: "--record-part8", file: "part8-figures.json" }, // 6c0ee3f, after round 17, with the fifteenth to seventeenth sets
  { label: "part 9a", flag: "--record-part9a", file: "part9a-figures.json" }, // b3d9a1d, after round 18, with the sixteenth and seventeenth sets
  { label: "part 9b", flag: "--record-part9b", file: "part9b-figures.json" }, // 2a154f3, after round 19, with the seventeenth set
  { label: "part 9", flag: "--record-part9", file: "part9-figures.json" }, // e10913d, after round 20, with the eighteenth to twenty-second sets
  { label: "part 10a", flag: "--record-part10a", file: "part10a-figures.json" }, // 12d742f, after round 21, with the nineteenth to twenty-second sets
  { label: "part 10b", flag: "--record-part10b", file: "part10b-figures.json" }, // c21c15f, after round 22, with the twentieth to twenty-second sets
  { label: "part 10c", flag: "--record-part10c", file: "part10c-figures.json" }, // 70f7703, after round 23, with the twenty-first and twenty-second sets
  { label: "part 10d", flag: "--record-part10d", file: "part10d-figures.json" }, // cb757a9, after round 24, with the twenty-second set
  { label: "part 10", flag: "--record-part10", file: "part10-figures.json" }, // 2c14c99, after round 25, the analyzer at the start of part 11
  { label: "part 11a", flag: "--record-part11a", file: "part11a-figures.json" }, // 47c362e, the complaint word model, before round 26
  { label: "part 11b", flag: "--record-part11b", file: "part11b-figures.json" }, // 85ff766, after round 26
] as const;
const labelsFile = (file: string) => join(import.meta.dirname, "labels", file);

type Figures = Record<string, number>;

// ---------- safety ----------

/** An action that gets the reader to do what the mail wants: the wrong advice on a risky mail. */
export const COMPLIANCE =
  /^(reply|respond|answer|pay|click|confirm|call|phone|text|approve|scan|buy|purchase|send|transfer|wire|open|download|install|accept|grant|sign|log in|enter|update|review the attached|review the invoice|add the|save the|join|enroll|fill|forward the code|check the payment|follow)/i;

function analyse(input: AnalyzerInput, context: AnalyzerContext): EmailAnalysis {
  return analyzeEmail(input, context);
}

function safety(split: Split, errors: string[]): Figures {
  const set = loadMailSet(split);
  let hostile = 0;
  let caught = 0;
  let normals = 0;
  let falseAlarms = 0;
  let flagged = 0;
  let complianceOnFlagged = 0;
  let complianceOnHostile = 0;
  let pressureOnFlagged = 0;
  let withoutReasons = 0;
  const perType = new Map<string, { n: number; caught: number }>();
  for (const sample of set.mail) {
    const a = analyse(mailInput(sample, set), set.context);
    const isFlagged = a.security.verdict !== "safe";
    const compliance = a.suggestedActions.filter((x) => COMPLIANCE.test(x.trim()));
    if (isFlagged) {
      flagged++;
      if (compliance.length > 0) complianceOnFlagged++;
      if (a.urgency === "high" || a.importance > 4) pressureOnFlagged++;
      if (!a.security.reasons.some((r) => r.severity !== "info" && r.message.length >= 20)) withoutReasons++;
    }
    if (sample.kind === "hostile") {
      hostile++;
      if (isFlagged) caught++;
      if (compliance.length > 0) complianceOnHostile++;
      const t = perType.get(sample.type) ?? { n: 0, caught: 0 };
      t.n++;
      if (isFlagged) t.caught++;
      perType.set(sample.type, t);
      if (!isFlagged || compliance.length > 0)
        errors.push(
          `safety ${sample.id}: ${a.security.verdict} [${a.security.reasons.map((r) => r.code).join(",")}] urgency ${a.urgency} importance ${a.importance} actions ${JSON.stringify(a.suggestedActions)}`,
        );
    } else {
      normals++;
      if (isFlagged) {
        falseAlarms++;
        errors.push(
          `false alarm ${sample.id}: ${a.security.reasons.map((r) => `${r.code}: ${r.message}`).join(" | ")}`,
        );
      }
    }
  }
  // Ordinary corpus mail for the false-alarm rate (no contacts known).
  const ham = corpusHam(split);
  for (const message of ham.messages) {
    // Parsing is async; the corpus is read up front by trust() below.
    const input = CORPUS_INPUTS.get(message.path);
    if (!input) continue;
    normals++;
    const a = analyse(input, {});
    if (a.security.verdict !== "safe") {
      falseAlarms++;
      errors.push(`false alarm ${message.path}: ${a.security.reasons.map((r) => r.code).join(",")}`);
    }
  }
  const figures: Figures = {
    hostile,
    caught,
    normals,
    falseAlarms,
    recall: caught / hostile,
    precision: caught + falseAlarms === 0 ? 0 : caught / (caught + falseAlarms),
    complianceOnFlagged,
    complianceOnHostile,
    pressureOnFlagged,
    withoutReasons,
    flagged,
  };
  for (const [type, t] of perType) figures[`recall:${type}`] = t.caught / t.n;
  // Real wallet-phishing domains as the sender of an otherwise empty mail: the look-alike check alone.
  const wallet = walletDomains(split);
  let walletCaught = 0;
  for (const domain of wallet.phishing) {
    const a = analyse(
      { from: { name: "", address: `no-reply@${domain}` }, subject: "", bodyText: "", bodyHtml: null },
      {},
    );
    if (a.security.verdict !== "safe") walletCaught++;
  }
  let walletFalse = 0;
  for (const domain of wallet.legitimate) {
    const a = analyse(
      { from: { name: "", address: `no-reply@${domain}` }, subject: "", bodyText: "", bodyHtml: null },
      {},
    );
    if (a.security.verdict !== "safe") walletFalse++;
  }
  figures.walletPhishing = wallet.phishing.length;
  figures.walletRecall = walletCaught / wallet.phishing.length;
  figures.walletLegitimate = wallet.legitimate.length;
  figures.walletFalseAlarmRate = walletFalse / wallet.legitimate.length;
  return figures;
}

const CORPUS_INPUTS = new Map<string, AnalyzerInput>();

// ---------- actions ----------

const REPLY = /^(reply|respond|answer)/i;
const ARCHIVE = /^archive/i;

/** Why the actions do not fit the mail's intent (empty when they fit). */
export function actionMisfits(intent: string, a: EmailAnalysis): string[] {
  const out: string[] = [];
  const actions = a.suggestedActions;
  const noResponse = a.responseTime === "No response needed";
  const any = (p: RegExp) => actions.some((x) => p.test(x));
  if (actions.length === 0) out.push("no action");
  switch (intent) {
    case "question":
      if (!any(REPLY)) out.push("no reply action");
      if (noResponse) out.push("no response needed");
      break;
    case "request":
      if (any(ARCHIVE)) out.push("archive");
      if (noResponse) out.push("no response needed");
      break;
    case "meeting":
      if (any(ARCHIVE)) out.push("archive");
      if (noResponse) out.push("no response needed");
      if (!any(/meeting|calendar|time|reply|call|invit/i)) out.push("nothing about the meeting");
      break;
    case "complaint":
      if (any(ARCHIVE)) out.push("archive");
      if (noResponse) out.push("no response needed");
      if (!any(/reply|respond|apolog|complaint|refund|problem|concern/i))
        out.push("nothing about the complaint");
      break;
    case "deadline":
      if (any(ARCHIVE)) out.push("archive");
      if (noResponse) out.push("no response needed");
      if (!any(/before|by |deadline|due|until|within/i)) out.push("no deadline in the actions");
      break;
    case "information":
      if (any(/^reply to confirm/i)) out.push("reply to confirm");
      break;
    case "notification":
      if (any(REPLY) || any(/^confirm/i)) out.push("reply on a notification");
      break;
  }
  return out;
}

/**
 * An information mail given a complaint's actions: "fits" lets information mail have any action
 * but "reply to confirm", so this misreading is counted on its own.
 */
function readAsComplaint(intent: string | undefined, a: EmailAnalysis): boolean {
  return intent === "information" && a.suggestedActions.some((s) => /complaint/i.test(s));
}

function actions(split: Split, errors: string[]): Figures {
  const set = loadMailSet(split);
  const perIntent = new Map<string, { n: number; fit: number }>();
  let n = 0;
  let fit = 0;
  let infoAsComplaint = 0;
  // actions-dev2.json (part 3) is in the dev set's mailbox.
  for (const sample of withDevExtra("actions.json", split, set.mail)) {
    if (sample.kind !== "normal" || !sample.intent) continue;
    const a = analyse(mailInput(sample, set), set.context);
    const misfits = actionMisfits(sample.intent, a);
    if (readAsComplaint(sample.intent, a)) {
      infoAsComplaint++;
      errors.push(`actions ${sample.id} (information): given a complaint's actions`);
    }
    const row = perIntent.get(sample.intent) ?? { n: 0, fit: 0 };
    row.n++;
    n++;
    if (misfits.length === 0) {
      row.fit++;
      fit++;
    } else {
      errors.push(
        `actions ${sample.id} (${sample.intent}): ${misfits.join(", ")} | ${JSON.stringify(a.suggestedActions)} ${a.responseTime}`,
      );
    }
    perIntent.set(sample.intent, row);
  }
  const figures: Figures = { n, fitRate: fit / n, infoAsComplaint };
  for (const [intent, row] of perIntent) figures[`fit:${intent}`] = row.fit / row.n;
  // The second held-out set (issue 18 part 2), in the dev set's mailbox; held-out runs only.
  if (split === "heldout") {
    const fresh = (
      JSON.parse(readFileSync(join(import.meta.dirname, "labels", "actions-heldout2.json"), "utf8")) as {
        heldout: MailSample[];
      }
    ).heldout;
    const mailbox = loadMailSet("dev");
    let freshFit = 0;
    for (const sample of fresh) {
      const misfits = actionMisfits(
        sample.intent ?? "",
        analyse(mailInput(sample, mailbox), mailbox.context),
      );
      if (misfits.length === 0) freshFit++;
      else errors.push(`actions (second held-out) ${sample.id} (${sample.intent}): ${misfits.join(", ")}`);
    }
    figures["fresh:n"] = fresh.length;
    figures["fresh:fitRate"] = freshFit / fresh.length;
    // The third to seventh held-out sets (parts 3 to 5); their misfits are not listed, so they
    // cannot leak into tuning.
    // Also pooled by intent over all of them: which kind of ask new mailboxes still miss.
    const pooled = new Map<string, { n: number; fit: number }>();
    let infoAsComplaint = 0;
    for (const set of LATER_SETS) {
      const key = LATER_SET_NAMES[set];
      const later = laterHeldout<MailSample>(set, "actions").heldout;
      if (later.length === 0) continue;
      let fitting = 0;
      for (const m of later) {
        const a = analyse(mailInput(m, mailbox), mailbox.context);
        const ok = actionMisfits(m.intent ?? "", a).length === 0;
        if (readAsComplaint(m.intent, a)) infoAsComplaint++;
        if (ok) fitting++;
        const row = pooled.get(m.intent ?? "") ?? { n: 0, fit: 0 };
        row.n++;
        if (ok) row.fit++;
        pooled.set(m.intent ?? "", row);
      }
      figures[`${key}:n`] = later.length;
      figures[`${key}:fitRate`] = fitting / later.length;
    }
    figures["later:infoAsComplaint"] = infoAsComplaint;
    for (const [intent, row] of pooled) {
      figures[`later:n:${intent}`] = row.n;
      figures[`later:fit:${intent}`] = row.fit / row.n;
    }
  }
  return figures;
}

// ---------- labels ----------

function vaderLabel(text: string): SentimentLabel {
  const c = vader.SentimentIntensityAnalyzer.polarity_scores(text).compound;
  return c >= 0.05 ? "positive" : c <= -0.05 ? "negative" : "neutral";
}

function shownLabel(subject: string, body: string): SentimentLabel {
  return analyse(
    {
      from: { name: "Jordan Smith", address: "jordan.smith@example.com" },
      subject,
      bodyText: body,
      bodyHtml: null,
    },
    {},
  ).sentiment as SentimentLabel;
}

const GREETINGS = [
  "Dear Alex,",
  "Hi team,",
  "Hello Maria,",
  "Good morning,",
  "Dear Sir or Madam,",
  "Hi Sam,",
];
const CLOSINGS = [
  "Best regards,\nJordan Smith\nAccount Manager | Contoso Ltd\n+1 425 555 0100",
  "Kind regards,\nPriya",
  "Thanks,\nTom",
  "Cheers,\nDan",
  "Sincerely,\nDr. Helen Park\nDirector of Operations",
  "Warm wishes,\nEllie",
];
const SUBJECTS = ["Re: your order", "Follow-up", "Quick note", "Re: last week", "Feedback", "Update"];

/** A labelled sentence as the body of a mail: greeting, the sentence, closing and signature. */
function emailShaped(text: string, i: number): { subject: string; body: string } {
  return {
    subject: SUBJECTS[i % SUBJECTS.length] ?? "",
    body: `${GREETINGS[i % GREETINGS.length]}\n\n${text}\n\n${CLOSINGS[(i * 7) % CLOSINGS.length]}`,
  };
}

interface Scored {
  truth: SentimentLabel;
  shown: SentimentLabel;
  vader: SentimentLabel;
}

function macroF1(rows: Scored[], pick: (r: Scored) => SentimentLabel): number {
  const labels: SentimentLabel[] = ["positive", "negative", "neutral"];
  const f1s = labels.map((label) => {
    const tp = rows.filter((r) => r.truth === label && pick(r) === label).length;
    const predicted = rows.filter((r) => pick(r) === label).length;
    const support = rows.filter((r) => r.truth === label).length;
    const p = predicted ? tp / predicted : 0;
    const rc = support ? tp / support : 0;
    return p + rc === 0 ? 0 : (2 * p * rc) / (p + rc);
  });
  return f1s.reduce((s, x) => s + x, 0) / f1s.length;
}

const accuracyOf = (rows: Scored[], pick: (r: Scored) => SentimentLabel) =>
  rows.filter((r) => pick(r) === r.truth).length / rows.length;

function labels(split: Split, errors: string[]): Figures {
  const figures: Figures = {};
  const sentences = emailSentences(split === "dev" ? "dev" : "heldout2").map((s) => ({
    truth: s.label,
    shown: shownLabel("", s.text),
    vader: vaderLabel(s.text),
    text: s.text,
  }));
  for (const r of sentences)
    if (r.shown !== r.truth) errors.push(`label email sentence ${r.truth} → ${r.shown}: ${r.text}`);
  figures["email3:n"] = sentences.length;
  figures["email3:shownAccuracy"] = accuracyOf(sentences, (r) => r.shown);
  figures["email3:vaderAccuracy"] = accuracyOf(sentences, (r) => r.vader);
  figures["email3:shownMacroF1"] = macroF1(sentences, (r) => r.shown);
  figures["email3:vaderMacroF1"] = macroF1(sentences, (r) => r.vader);
  const polar = sentences.filter((r) => r.truth !== "neutral");
  figures["email2:n"] = polar.length;
  figures["email2:shownAccuracy"] = accuracyOf(polar, (r) => r.shown);
  figures["email2:vaderAccuracy"] = accuracyOf(polar, (r) => r.vader);

  // UCI sentences (the `sentiment` package's fixtures): yelp for dev, amazon and imdb held out.
  const sets = split === "dev" ? (["yelp"] as const) : (["amazon", "imdb"] as const);
  const uci = sets.flatMap((name) => loadSentimentSet(name));
  const plain: Scored[] = [];
  const shaped: Scored[] = [];
  uci.forEach((row, i) => {
    const truth: SentimentLabel = row.label === 1 ? "positive" : "negative";
    plain.push({ truth, shown: shownLabel("", row.text), vader: vaderLabel(row.text) });
    const mail = emailShaped(row.text, i);
    shaped.push({
      truth,
      shown: shownLabel(mail.subject, mail.body),
      vader: vaderLabel(`${mail.subject}\n${mail.body}`),
    });
  });
  figures["uci2:n"] = plain.length;
  figures["uci2:shownAccuracy"] = accuracyOf(plain, (r) => r.shown);
  figures["uci2:vaderAccuracy"] = accuracyOf(plain, (r) => r.vader);
  figures["uci2:shownNeutralRate"] = plain.filter((r) => r.shown === "neutral").length / plain.length;
  figures["uciMail2:shownAccuracy"] = accuracyOf(shaped, (r) => r.shown);
  figures["uciMail2:vaderAccuracy"] = accuracyOf(shaped, (r) => r.vader);
  // The salutation effect: negative sentences that read as positive once they sit in a mail.
  const negatives = shaped.filter((r) => r.truth === "negative");
  figures["uciMail2:negativeShownPositive"] =
    negatives.filter((r) => r.shown === "positive").length / negatives.length;
  figures["uciMail2:negativeVaderPositive"] =
    negatives.filter((r) => r.vader === "positive").length / negatives.length;

  const requests = requestSentences(split);
  let shownNegative = 0;
  let vaderNegative = 0;
  for (const text of requests) {
    if (shownLabel("", text) === "negative") {
      shownNegative++;
      errors.push(`label request read as negative: ${text}`);
    }
    if (vaderLabel(text) === "negative") vaderNegative++;
  }
  figures["requests:n"] = requests.length;
  figures["requests:shownNotNegative"] = 1 - shownNegative / requests.length;
  figures["requests:vaderNotNegative"] = 1 - vaderNegative / requests.length;
  if (split === "heldout") {
    for (const set of LATER_SETS) {
      const later = laterHeldout<string>(set, "email-requests").heldout;
      if (later.length === 0) continue;
      figures[`requests${set}:n`] = later.length;
      figures[`requests${set}:shownNotNegative`] =
        later.filter((t) => shownLabel("", t) !== "negative").length / later.length;
      figures[`requests${set}:vaderNotNegative`] =
        later.filter((t) => vaderLabel(t) !== "negative").length / later.length;
    }
  }
  return figures;
}

// ---------- buckets ----------

function bucketOf(input: AnalyzerInput, context: AnalyzerContext): { bucket: string; category: string } {
  const a = analyse(input, context);
  const from = input.from.name ? `${input.from.name} <${input.from.address}>` : input.from.address;
  const bucket =
    classifyBucket({
      from,
      subject: input.subject,
      snippet: a.summary,
      aiAnalysis: { category: a.category },
    }) ?? "other";
  return { bucket, category: a.category };
}

function buckets(split: Split, errors: string[]): Figures {
  const direct = directMail(split);
  let right = 0;
  let inNewsletters = 0;
  const owner = {
    receivedAt: new Date("2025-03-11T09:30:00Z"),
    userAddress: "sam.taylor@northwind-traders.com",
  };
  for (const mail of direct) {
    const to = { ...owner, userAddress: mail.owner ?? owner.userAddress };
    const input = mailInput(
      {
        id: "",
        kind: "normal",
        type: "direct",
        ...mail,
        ...(mail.inReplyTo ? { inReplyTo: mail.inReplyTo } : {}),
      },
      to,
    );
    const { bucket, category } = bucketOf(input, { userAddresses: [to.userAddress] });
    if (bucket === mail.bucket) right++;
    else errors.push(`bucket direct ${mail.bucket} → ${bucket} (${category}): ${mail.subject}`);
    if (bucket === "newsletters") inNewsletters++;
  }
  const laterFigures: Figures = {};
  // The third set was written for Jamie Park's mailbox before set files named their owner.
  for (const set of split === "heldout" ? LATER_SETS : []) {
    const later = laterHeldout<DirectMail>(set, "direct-mail");
    if (later.heldout.length === 0) continue;
    const to = {
      receivedAt: owner.receivedAt,
      userAddress: later.owner ?? "jamie.park@copperline-design.com",
    };
    let right = 0;
    let newsletters = 0;
    for (const mail of later.heldout) {
      const input = mailInput({ id: "", kind: "normal", type: "direct", ...mail }, to);
      const { bucket } = bucketOf(input, { userAddresses: [to.userAddress] });
      if (bucket === mail.bucket) right++;
      if (bucket === "newsletters") newsletters++;
    }
    laterFigures[`direct${set}:n`] = later.heldout.length;
    laterFigures[`direct${set}:accuracy`] = right / later.heldout.length;
    laterFigures[`direct${set}:inNewsletters`] = newsletters / later.heldout.length;
  }
  let spamNotNewsletter = 0;
  let spamN = 0;
  for (const message of listSpam(split).messages) {
    const input = CORPUS_INPUTS.get(message.path);
    if (!input) continue;
    spamN++;
    const { bucket, category } = bucketOf(input, {});
    if (bucket !== "newsletters") spamNotNewsletter++;
    else
      errors.push(
        `bucket list spam → newsletters (${category}): ${message.path} ${input.subject.slice(0, 60)}`,
      );
  }
  return {
    "direct:n": direct.length,
    "direct:accuracy": right / direct.length,
    "direct:inNewsletters": inNewsletters / direct.length,
    "listSpam:n": spamN,
    "listSpam:notNewsletters": spamNotNewsletter / spamN,
    ...laterFigures,
  };
}

// ---------- text quality ----------

interface TextCase {
  from: { name: string; address: string };
  subject: string;
  text: string;
  foreign: string[];
}

const PLACEHOLDER = /\[(?:name|add [^\]]*|your [^\]]*|recipient|company|date|details?)\]/i;
// A sentence run into the next one on the same line: a word, a space and a sentence opener, no stop between.
const GLUED =
  /[a-z0-9)"'\]][ \t]+(?:Thank you|Thanks|Please|Best regards|Kind regards|Could you|Let me know|Looking forward)\b/;
const LIST_TAG_QUOTED = /["“]\s*(?:(?:re|fwd?|aw)\s*:\s*)*\[[^\]]{1,40}\]/i;

/** Whether a summary or key point shows one of the case's foreign phrases. */
function misattributes(c: TextCase): string[] {
  const a = analyse(
    {
      from: c.from,
      subject: c.subject,
      bodyText: c.text,
      bodyHtml: null,
      receivedAt: new Date("2025-03-11T09:30:00Z"),
    },
    {},
  );
  const shown = [a.summary, ...a.keyPoints].join("\n").toLowerCase();
  return c.foreign.filter((f) => shown.includes(f.toLowerCase()));
}

function laterSummaries(): Figures {
  const figures: Figures = {};
  for (const set of LATER_SETS) {
    const later = laterHeldout<TextCase>(set, "text-quality").heldout;
    if (later.length === 0) continue;
    figures[`summary${set}:n`] = later.length;
    figures[`summary${set}:clean`] = later.filter((c) => misattributes(c).length === 0).length / later.length;
  }
  return figures;
}

function textQuality(split: Split, errors: string[]): Figures {
  const file = JSON.parse(
    readFileSync(join(import.meta.dirname, "labels", "text-quality.json"), "utf8"),
  ) as Record<Split, TextCase[]>;
  let misattributed = 0;
  const cases = withDevExtra("text-quality.json", split, file[split]);
  for (const c of cases) {
    const hit = misattributes(c);
    if (hit.length > 0) {
      misattributed++;
      errors.push(`text "${c.subject}": shows ${hit.join(" / ")}`);
    }
  }
  // Templates: replies to corpus mail (list posts with tagged subjects among them) and to the
  // hand-written mail, and compose help for their subjects, in every style.
  const prefs = {
    email_signature: "",
    tone_preference: "Professional",
    reply_style: "",
    forbidden_phrases: [],
    vip_contacts: [],
    email_behavior: {
      ignore_categories: [],
      auto_draft: true,
      auto_send: false,
      priority_handling: "medium",
    },
  };
  const sources: Array<{ senderName: string; senderAddress: string; subject: string; body: string }> = [];
  for (const message of corpusHam(split).messages) {
    const input = CORPUS_INPUTS.get(message.path);
    if (input)
      sources.push({
        senderName: input.from.name,
        senderAddress: input.from.address,
        subject: input.subject,
        body: input.bodyText ?? "",
      });
  }
  for (const m of loadMailSet(split).mail.filter((x) => x.kind === "normal"))
    sources.push({
      senderName: m.from.name,
      senderAddress: m.from.address,
      subject: m.subject,
      body: m.text,
    });
  let texts = 0;
  let placeholders = 0;
  let glued = 0;
  let listTags = 0;
  const styles: ResponseStyle[] = ["professional", "friendly", "brief", "detailed"];
  for (const source of sources) {
    const outputs = [
      ...styles.flatMap((style) => drafting.draftRepliesLocally({ ...source, keyPoints: [] }, prefs, style)),
      ...drafting.composeLocally(source.subject, "", prefs),
      ...drafting.composeLocally(source.subject, "i need a bit more time", prefs),
    ];
    for (const out of outputs) {
      texts++;
      if (PLACEHOLDER.test(out)) {
        placeholders++;
        if (placeholders <= 3)
          errors.push(`template placeholder: ${out.slice(0, 120).replace(/\n/g, " / ")}`);
      }
      const g = GLUED.exec(out);
      if (g) {
        glued++;
        if (glued <= 5)
          errors.push(
            `template glued "${out.slice(Math.max(0, g.index - 40), g.index + 30).replace(/\n/g, " / ")}"`,
          );
      }
      if (LIST_TAG_QUOTED.test(out)) {
        listTags++;
        if (listTags <= 3) errors.push(`template list tag: ${out.slice(0, 160).replace(/\n/g, " / ")}`);
      }
    }
  }
  return {
    "summary:n": cases.length,
    "summary:clean": 1 - misattributed / cases.length,
    ...(split === "heldout" ? laterSummaries() : {}),
    "templates:n": texts,
    "templates:placeholders": placeholders / texts,
    "templates:glued": glued / texts,
    "templates:listTags": listTags / texts,
  };
}

// ---------- run and report ----------

export async function trust(split: Split): Promise<{ figures: Figures; errors: string[] }> {
  for (const message of [...corpusHam(split).messages, ...listSpam(split).messages]) {
    if (!CORPUS_INPUTS.has(message.path))
      CORPUS_INPUTS.set(message.path, await toAnalyzerInput(readRaw(corpusHam(split).dir, message)));
  }
  const errors: string[] = [];
  const figures: Figures = {};
  const add = (prefix: string, f: Figures) => {
    for (const [k, v] of Object.entries(f)) figures[`${prefix}.${k}`] = v;
  };
  add("safety", safety(split, errors));
  add("actions", actions(split, errors));
  add("labels", labels(split, errors));
  add("buckets", buckets(split, errors));
  add("text", textQuality(split, errors));
  return { figures, errors };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dev = process.argv.includes("--dev");
  const { figures, errors } = await trust(dev ? "dev" : "heldout");
  const chosen = EARLIER_ANALYZERS.find((a) => process.argv.includes(a.flag));
  const record = chosen ? labelsFile(chosen.file) : null;
  if (record) {
    writeFileSync(
      record,
      `${JSON.stringify({ measured: new Date().toISOString(), root: ROOT, figures }, null, 1)}\n`,
    );
    process.stdout.write(`wrote ${record}\n`);
  }
  // Figures of an analyzer not recorded yet read as n/a.
  const recorded = (file: string): Figures => {
    try {
      return (JSON.parse(readFileSync(file, "utf8")) as { figures: Figures }).figures;
    } catch {
      return {};
    }
  };
  if (dev) {
    for (const [k, v] of Object.entries(figures))
      process.stdout.write(`${k}\t${Number.isInteger(v) ? v : v.toFixed(3)}\n`);
  } else {
    const markdown = trustMarkdown(
      figures,
      EARLIER_ANALYZERS.map((a) => ({ label: a.label, figures: recorded(labelsFile(a.file)) })),
    );
    process.stdout.write(`${markdown}\n`);
    if (shouldAppend() && !record) replaceResultsSection(TRUST_SECTION, markdown);
  }
  if (process.argv.includes("--errors")) process.stdout.write(`\n${errors.join("\n")}\n`);
}
