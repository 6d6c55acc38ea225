import model from "wink-eng-lite-web-model";
import type { Document, ItemEntity, ItemSentence, WinkMethods } from "wink-nlp";
import winkNLP from "wink-nlp";

/**
 * The one wink-nlp instance, loaded on first use: the model is ~3 MB of tables and takes tens
 * of milliseconds to initialise, which a server that never analyses mail should not pay.
 * POS tagging is left out of the pipe because nothing here reads it and it is the costliest step.
 */
let instance: WinkMethods | undefined;

function nlp(): WinkMethods {
  instance ??= winkNLP(model, ["sbd", "negation", "sentiment", "ner"]);
  return instance;
}

export interface ParsedEntity {
  type: string;
  value: string;
}

export interface ParsedSentence {
  text: string;
  /** wink's sentence sentiment, -1..1. */
  sentiment: number;
  entities: ParsedEntity[];
  /** Lower-cased token normals, for lexicon look-ups. */
  tokens: string[];
  /** wink token types: word, punctuation, number, email, url, ... */
  types: string[];
  /** wink's negation flags per token (true when in the scope of "not", "never", ...). */
  negated: boolean[];
}

export interface ParsedText {
  sentences: ParsedSentence[];
  /** wink's document sentiment, -1..1. */
  sentiment: number;
}

function asArray<T>(value: T[] | string[]): T[] {
  return value as T[];
}

// wink ends a sentence at the dot of a bare host name ("for bluewater-labs.com is"), so those
// dots are swapped for a one-dot leader, which it reads as part of the word, and back after.
// Addresses and URLs it already reads whole; they are left as they are.
const BARE_HOST = /\b[A-Za-z0-9][A-Za-z0-9-]*(?:\.[A-Za-z0-9][A-Za-z0-9-]*)*\.[a-z]{2,12}\b/g;
const LEADER = "\u2024";

// Only whole words with a dot, each tried once from its start, so the work stays linear.
function protectHosts(text: string): string {
  if (!text.includes(".")) return text;
  return text.replace(/(?<!\S)[^\s.]*\.\S*/g, (word) =>
    word.includes("@") || word.includes("://")
      ? word
      : word.replace(BARE_HOST, (host) => host.replaceAll(".", LEADER)),
  );
}

const restore = (text: string) => (text.includes(LEADER) ? text.replaceAll(LEADER, ".") : text);

// wink knows the common abbreviations ("approx.", "etc.", "Dr.") but ends a sentence at any
// other short word's dot, so "the VP of dev. (now CTO)" and "ext. 4411" came out as two
// sentences and a summary stopped mid-thought. No sentence opens with a lower-case aside, and a
// phone extension is followed by its number, so those dots are kept in the word. A lower-case
// word after the dot is left alone: casual mail starts sentences that way ("am I off. my mum").
const ASIDE_DOT = /(?<=(?:^|[\s(])[A-Za-z]{2,4})\.(?=[ \t]+\([a-z])/g;
const EXTENSION_DOT = /(?<=\b(?:[Ee]xtn?|[Tt]el))\.(?=[ \t]*\d)/g;

function protectAbbreviations(text: string): string {
  if (!text.includes(".")) return text;
  return text.replace(ASIDE_DOT, LEADER).replace(EXTENSION_DOT, LEADER);
}

/** Sentences, tokens, entities and sentiment of `text` in one wink pass. */
export function parseText(text: string): ParsedText {
  const w = nlp();
  const its = w.its;
  const doc: Document = w.readDoc(protectAbbreviations(protectHosts(text)));
  const sentences: ParsedSentence[] = [];
  doc.sentences().each((sentence: ItemSentence) => {
    const tokens = sentence.tokens();
    const entities: ParsedEntity[] = [];
    sentence.entities().each((entity: ItemEntity) => {
      const detail = entity.out(its.detail) as unknown as { value?: string; type?: string };
      if (typeof detail.type === "string" && typeof detail.value === "string") {
        entities.push({ type: detail.type, value: restore(detail.value) });
      }
    });
    const sentiment = sentence.out(its.sentiment);
    sentences.push({
      text: restore(sentence.out()),
      sentiment: typeof sentiment === "number" ? sentiment : 0,
      entities,
      tokens: asArray<string>(tokens.out(its.normal)).map(restore),
      types: asArray<string>(tokens.out(its.type)),
      negated: asArray<boolean>(tokens.out(its.negationFlag)),
    });
  });
  const sentiment = doc.out(its.sentiment);
  return { sentences, sentiment: typeof sentiment === "number" ? sentiment : 0 };
}
