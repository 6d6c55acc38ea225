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

/** Sentences, tokens, entities and sentiment of `text` in one wink pass. */
export function parseText(text: string): ParsedText {
  const w = nlp();
  const its = w.its;
  const doc: Document = w.readDoc(text);
  const sentences: ParsedSentence[] = [];
  doc.sentences().each((sentence: ItemSentence) => {
    const tokens = sentence.tokens();
    const entities: ParsedEntity[] = [];
    sentence.entities().each((entity: ItemEntity) => {
      const detail = entity.out(its.detail) as unknown as { value?: string; type?: string };
      if (typeof detail.type === "string" && typeof detail.value === "string") {
        entities.push({ type: detail.type, value: detail.value });
      }
    });
    const sentiment = sentence.out(its.sentiment);
    sentences.push({
      text: sentence.out(),
      sentiment: typeof sentiment === "number" ? sentiment : 0,
      entities,
      tokens: asArray<string>(tokens.out(its.normal)),
      types: asArray<string>(tokens.out(its.type)),
      negated: asArray<boolean>(tokens.out(its.negationFlag)),
    });
  });
  const sentiment = doc.out(its.sentiment);
  return { sentences, sentiment: typeof sentiment === "number" ? sentiment : 0 };
}
