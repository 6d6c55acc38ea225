import type { ParsedSentence } from "./nlp.ts";
import { ruleTable } from "./rules/rule-table.ts";

/**
 * Extractive summary: the best one or two sentences of the cleaned body, in their original
 * order. Sentences score for position, for carrying a request, date or amount, and for a
 * reasonable length; greetings, sign-offs and link-only lines score nothing.
 */

const GREETING =
  /^(hi|hello|hey|dear|good (morning|afternoon|evening)|greetings|to whom)\b[^.!?]{0,40}[,!:.]?$/i;
const FILLER = /^(thanks|thank you|regards|best|cheers|sincerely|hope (you|this)|i hope)\b/i;
const SIGNAL = ruleTable("summary").regex("signal");
const MAX_SUMMARY = 320;

export function sentenceScore(sentence: ParsedSentence, index: number): number {
  const text = sentence.text.trim();
  const words = sentence.tokens.filter((_t, i) => sentence.types[i] === "word").length;
  if (words < 3 || GREETING.test(text) || /^https?:\/\/\S+$/.test(text)) return -1;
  let score = 1 / (1 + index * 0.35);
  if (words >= 6 && words <= 40) score += 0.5;
  if (words > 60) score -= 0.5;
  if (FILLER.test(text)) score -= 0.6;
  if (SIGNAL.test(text)) score += 0.6;
  if (sentence.entities.some((e) => e.type === "DATE" || e.type === "TIME" || e.type === "MONEY"))
    score += 0.4;
  if (/\?\s*$/.test(text)) score += 0.3;
  return score;
}

function tidy(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

export function summarize(sentences: readonly ParsedSentence[], subject: string): string {
  const scored = sentences
    .slice(0, 40)
    .map((sentence, index) => ({ sentence, index, score: sentenceScore(sentence, index) }))
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score);
  const picked = scored.slice(0, 2).sort((a, b) => a.index - b.index);
  let summary = "";
  for (const item of picked) {
    const next = tidy(item.sentence.text);
    if (summary && summary.length + next.length + 1 > MAX_SUMMARY) break;
    summary = summary ? `${summary} ${next}` : next;
  }
  if (!summary) summary = tidy(subject) || "No content";
  return summary.length > MAX_SUMMARY ? `${summary.slice(0, MAX_SUMMARY - 1).trimEnd()}…` : summary;
}
