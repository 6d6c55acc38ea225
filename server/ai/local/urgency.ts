import type { Urgency } from "../../../contract/ai.ts";
import type { EmailFeatures } from "./features.ts";
import { ruleTable } from "./rules/rule-table.ts";

const rules = ruleTable("urgency");

/**
 * Urgency from deadlines (wink DATE/TIME entities and relative words, resolved to days from
 * now), urgent wording, reply-needed cues and who sent it. Bulk and automated mail is capped at
 * medium: "Sale ends TODAY!" is not the user's emergency.
 */

export interface Deadline {
  /** As written: "Friday", "tomorrow 5pm", "EOD". */
  text: string;
  /** Whole days from now; 0 = today; null when the date could not be placed. */
  daysAway: number | null;
}

export interface UrgencyResult {
  level: Urgency;
  score: number;
  deadline: Deadline | null;
  replyNeeded: boolean;
  /** A direct question to the reader. */
  question: boolean;
  reasons: string[];
}

// Urgent wording: "ASAP", "action required", "end of day" (urgency.rules).
const URGENT_WORDS = rules.regex("urgent");
const VERY_URGENT = /\b(urgent(ly)?|asap|immediately|right away|emergency|as soon as possible)\b/i;
const DEADLINE_CUE =
  /\b(by|due|before|until|deadline|no later than|latest|expires?|closes?|ends?|cut-?off|within|runs? out|lapses?|ahead of)\b|\bno longer\b.{0,40}\bafter\b/i;
// "...before then": the date is in the sentence before, or in the subject.
const THEN = /\b(before|by|until) (then|that (date|day|time))\b/i;
const RELATIVE: ReadonlyArray<readonly [RegExp, number]> = [
  [/\b(today|tonight|this (morning|afternoon|evening)|eod|cob|end of (the )?day)\b/i, 0],
  [/\btomorrow\b/i, 1],
  [/\b(this week|end of (the )?week|eow)\b/i, 3],
  [/\bnext week\b/i, 7],
];
// "in 3 days", "within two weeks", "within 48 hours": a relative span, resolved to days.
const SPAN =
  /\b(?:in|within)\s+(?:the next\s+)?(\d{1,3}|one|two|three|four|five|six|seven|ten|twelve|fourteen|thirty)\s+(days?|weeks?|hours?|business days|working days)\b/i;
const NUMBER_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  ten: 10,
  twelve: 12,
  fourteen: 14,
  thirty: 30,
};

function spanDays(text: string): { text: string; days: number } | null {
  const match = SPAN.exec(text);
  if (!match?.[1] || !match[2]) return null;
  const n = NUMBER_WORDS[match[1].toLowerCase()] ?? Number(match[1]);
  const unit = match[2].toLowerCase();
  // Hours count as the days they reach into: "within 48 hours" is due in two days.
  const days = unit.startsWith("week") ? n * 7 : unit.startsWith("hour") ? Math.ceil(n / 24) : n;
  return { text: match[0], days };
}
const WEEKDAY_WORD = /\b(this |next )?(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b/i;
const SHORT_DAY_DATE = /\b(mon|tues?|weds?|thu(?:rs?)?|fri|sat|sun)\.? \d{1,2}(st|nd|rd|th)?\b/i;
const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];
// A request for a reply or an action: with a deadline, a reply is needed.
const REQUEST = rules.regex("reply-request");

const DAY_MS = 86_400_000;

function daysUntilWeekday(now: Date, weekday: number): number {
  const diff = (weekday - now.getUTCDay() + 7) % 7;
  return diff;
}

const DAY_MONTH = /^(\d{1,2})[/.](\d{1,2})(?:[/.](\d{2}|\d{4}))?$/;

/**
 * "14/02", "2/7", "07.02.2025": day and month in either order. The reading that falls soonest in
 * the coming 120 days wins ("2/7" received on 4 February is 7 February, not 2 July).
 */
function numericDate(value: string, now: Date): number | null {
  const match = DAY_MONTH.exec(value.trim());
  if (!match) return null;
  const a = Number(match[1]);
  const b = Number(match[2]);
  const year = match[3] ? Number(match[3].length === 2 ? `20${match[3]}` : match[3]) : now.getUTCFullYear();
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const readings = [
    [b, a],
    [a, b],
  ]
    .filter(
      ([month, day]) =>
        month !== undefined && day !== undefined && month >= 1 && month <= 12 && day >= 1 && day <= 31,
    )
    .map(([month, day]) => Math.floor((Date.UTC(year, (month ?? 1) - 1, day) - today) / DAY_MS))
    .filter((days) => days >= 0 && days <= 120);
  return readings.length > 0 ? Math.min(...readings) : null;
}

function resolveDate(value: string, now: Date): number | null {
  for (const [pattern, days] of RELATIVE) if (pattern.test(value)) return days;
  if (DAY_MONTH.test(value.trim())) return numericDate(value, now);
  const lower = value.toLowerCase();
  const weekday = WEEKDAYS.findIndex((d) => lower.includes(d) || lower.includes(`${d.slice(0, 3)} `));
  if (weekday !== -1) return daysUntilWeekday(now, weekday);
  const days = explicitDays(value, now);
  return days !== null && days >= -1 && days <= 366 ? Math.max(0, days) : null;
}

/** Explicit dates ("March 3rd", "12/05/2024"): Date.parse with the year of `now` if missing. */
function explicitDays(value: string, now: Date): number | null {
  const cleaned = value.replace(/(?<!\d)(\d+)(st|nd|rd|th)\b/gi, "$1").replace(/[.,]$/, "");
  const withYear = /\b\d{4}\b/.test(cleaned) ? cleaned : `${cleaned} ${now.getUTCFullYear()}`;
  const parsed = Date.parse(withYear);
  if (!Number.isFinite(parsed)) return null;
  return Math.floor((parsed - Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())) / DAY_MS);
}

/**
 * A date written out that is already gone ("I ordered it on 12 January"): no deadline, unless the
 * sentence makes it one that has passed ("was due by 12 January").
 */
function pastDate(value: string, sentence: string, now: Date): boolean {
  if (DAY_MONTH.test(value.trim()) || RELATIVE.some(([p]) => p.test(value))) return false;
  // The cue must lead up to the date ("was due by 12 January"), not stand elsewhere ("...before").
  const at = sentence.indexOf(value);
  const lead = sentence.slice(Math.max(0, at - 30), Math.max(0, at));
  if (
    /\boverdue\b/i.test(sentence) ||
    /\b(due|deadline|by|before|no later than|until|expire[sd]?|ahead of|closes?|closing|ends?|shuts?|runs? out|lapses?)\b[^.!?]{0,15}$/i.test(
      lead,
    )
  )
    return false;
  return (explicitDays(value, now) ?? 0) < -1;
}

const MONTH_NAME =
  "january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec";

/** wink reads "the 12th of May" as an ordinal: with its month after "of" it is a date ("12th May"). */
function ordinalDates(
  text: string,
  entities: ReadonlyArray<{ type: string; value: string }>,
): Array<{ type: string; value: string }> {
  return entities.flatMap((e) => {
    if (e.type !== "ORDINAL" || !/^\d{1,2}(st|nd|rd|th)$/i.test(e.value)) return [];
    const month = new RegExp(`\\b${e.value} of (${MONTH_NAME})\\b`, "i").exec(text)?.[1];
    return month ? [{ type: "DATE", value: `${e.value} ${month}` }] : [];
  });
}

/** The nearest deadline-like date in the text: a DATE/TIME next to a deadline cue, or a relative word. */
export function findDeadline(features: EmailFeatures): Deadline | null {
  let best: Deadline | null = null;
  const consider = (text: string, days: number | null) => {
    if (best === null || (days !== null && (best.daysAway === null || days < best.daysAway))) {
      best = { text, daysAway: days };
    }
  };
  const subjectRelative = RELATIVE.find(([p]) => p.test(features.subject));
  if (subjectRelative) {
    const word = subjectRelative[0].exec(features.subject)?.[0] ?? "";
    consider(word, subjectRelative[1]);
  }
  const subjectSpan = DEADLINE_CUE.test(features.subject) ? spanDays(features.subject) : null;
  if (subjectSpan) consider(subjectSpan.text, subjectSpan.days);
  const subjectDay = WEEKDAY_WORD.exec(features.subject);
  const sentences = features.sentences.slice(0, 40);
  sentences.forEach((sentence, i) => {
    const then = THEN.exec(sentence.text);
    if (!then) return;
    const before = sentences[i - 1];
    // "...exchange on Wednesday and we need it before then": the date may open the same sentence.
    const earlier = sentence.entities.filter(
      (e) => e.type === "DATE" && sentence.text.indexOf(e.value) < then.index,
    );
    for (const date of [...(before?.entities.filter((e) => e.type === "DATE") ?? []), ...earlier])
      consider(date.value.replace(/[.,]$/, ""), resolveDate(date.value, features.now));
    if (subjectDay) consider(subjectDay[0], resolveDate(subjectDay[0], features.now));
  });
  if (subjectDay && DEADLINE_CUE.test(features.subject))
    consider(subjectDay[0], resolveDate(subjectDay[0], features.now));
  // A subject's short weekday and date after a cue ("Quote needed by Thurs 6th please").
  const shortDay = DEADLINE_CUE.test(features.subject) ? SHORT_DAY_DATE.exec(features.subject) : null;
  const shortDayIndex = shortDay
    ? WEEKDAYS.findIndex((d) => d.startsWith((shortDay[1] ?? "").toLowerCase().slice(0, 3)))
    : -1;
  if (shortDay && shortDayIndex !== -1) consider(shortDay[0], daysUntilWeekday(features.now, shortDayIndex));
  for (const sentence of sentences) {
    const hasCue = DEADLINE_CUE.test(sentence.text) || REQUEST.test(sentence.text);
    const span = hasCue ? spanDays(sentence.text) : null;
    if (span) consider(span.text, span.days);
    for (const [pattern, days] of RELATIVE) {
      const match = pattern.exec(sentence.text);
      if (match && (hasCue || days <= 1)) consider(match[0], days);
    }
    if (!hasCue) continue;
    // wink reads "14/02" as a number: a day and month after a deadline cue is a date.
    const dates = [
      ...sentence.entities.filter(
        (e) => e.type === "DATE" || (e.type === "CARDINAL" && DAY_MONTH.test(e.value.trim())),
      ),
      ...ordinalDates(sentence.text, sentence.entities),
    ];
    const times = sentence.entities.filter((e) => e.type === "TIME");
    for (const date of dates) {
      // "last Tuesday", "the Tuesday before": a day gone by, no deadline.
      const day = date.value.replace(/[.,]$/, "").replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      if (
        new RegExp(`\\b(last|previous) ${day}\\b|\\bthe ${day} (before|prior|just gone)\\b`, "i").test(
          sentence.text,
        )
      )
        continue;
      if (pastDate(date.value, sentence.text, features.now)) continue;
      const days = resolveDate(date.value, features.now);
      const time = times[0]?.value.replace(/[.,]$/, "");
      consider(time ? `${date.value} ${time}` : date.value.replace(/[.,]$/, ""), days);
    }
  }
  return best;
}
// A question to the reader, also after the writer says what they do not know.
const QUESTION_TO_READER = new RegExp(
  ["question-opener", "not-sure"].map((f) => rules.regex(f).source).join("|"),
  "i",
);

// A question may open with the reader's name: "Alex - which formats...?", "Sam, can you...?"
const VOCATIVE = /^\s*((hi|hey|hello|hiya|morning|afternoon|evening)\s+)?[A-Z][a-z]+\s*[-–—,:]\s*/i;
// A lead-in before a dash or colon: "Quick one before I send this to the hall — how many...", "So – does...".
const LEAD_IN = /^[^?–—:]{1,80}?\s[-–—:]\s+/;
// A question put as a statement, or asked without its question mark.
export const INDIRECT_QUESTION = new RegExp(
  ["question-word-first", "indirect-question", "unmarked-opener"].map((f) => rules.regex(f).source).join("|"),
  "i",
);
// Questions asked without their mark.
export const MARKLESS_QUESTION = new RegExp(
  ["markless-question", "hedged-figure"].map((f) => rules.regex(f).source).join("|"),
  "i",
);

// A short question with no verb to open it ("Still on for Thursday?", "Pasta or the leftover curry
// tonight?", "Spare van keys – yours?"), but not a rhetorical one.
const RHETORICAL =
  /^(who knows|right|why not|guess what|can you believe it|what next|how about that|eh|huh|really|seriously|who'd have thought( it)?)\s*\?/i;
function ellipticalQuestion(text: string): boolean {
  const trimmed = text.trim();
  return trimmed.split(/\s+/).length <= 10 && !/^(why|how come)\b/i.test(trimmed);
}

// A sentence cut after a clause: ", and if so, is there a certificate...?"
const LEAD_CONJ = /^[\s,;]*((and|but|or|so)\s+)?((if so|if not|otherwise|in that case|either way),?\s+)?/i;
// A service's pointer to its help pages ("Questions about your order? Please visit ...").
const HELP_POINTER = /^(questions|any questions|need help|got a question|have a question)\b[^?]{0,40}\?\s*$/i;

export function hasQuestion(features: EmailFeatures): boolean {
  return features.sentences.slice(0, 30).some((s) => {
    const text = s.text.replace(LEAD_CONJ, "");
    const afterLeadIn = text.replace(LEAD_IN, "");
    if (INDIRECT_QUESTION.test(text) || (afterLeadIn !== text && INDIRECT_QUESTION.test(afterLeadIn)))
      return true;
    if (!features.bulk && !features.automated && MARKLESS_QUESTION.test(text)) return true;
    // "(he said something about Crib 5?)": the mark may sit in a closing bracket.
    if (!/\?\)?\s*$/.test(text) || HELP_POINTER.test(text)) return false;
    const bare = text.replace(VOCATIVE, "");
    if (RHETORICAL.test(bare.trim())) return false;
    return (
      QUESTION_TO_READER.test(bare) ||
      (afterLeadIn !== text && QUESTION_TO_READER.test(bare.replace(LEAD_IN, ""))) ||
      // A choice asked of the reader ("It is possible to shave her or this is bad for the coat?").
      (!features.bulk && !features.automated && (ellipticalQuestion(bare) || /\bor\b/i.test(bare)))
    );
  });
}

export function assessUrgency(features: EmailFeatures): UrgencyResult {
  const reasons: string[] = [];
  let score = 0;
  const text = `${features.subject}\n${features.text}`;
  const urgentMatch = URGENT_WORDS.exec(text);
  if (urgentMatch) {
    score += VERY_URGENT.test(text) ? 3 : 2;
    reasons.push(`urgent wording ("${urgentMatch[0]}")`);
  }
  const deadline = findDeadline(features);
  if (deadline) {
    const d = deadline.daysAway;
    const add = d === null ? 0.5 : d <= 1 ? 3 : d <= 3 ? 2 : d <= 7 ? 1 : 0.5;
    score += add;
    reasons.push(`deadline ${deadline.text}`);
  }
  const question = hasQuestion(features);
  const replyNeeded =
    !features.bulk && !features.automated && (question || REQUEST.test(features.text.slice(0, 3000)));
  if (replyNeeded) {
    score += 1.5;
    reasons.push("asks for a reply");
  }
  if (features.isVip) {
    score += 2;
    reasons.push("VIP sender");
  } else if (features.isKnownContact) {
    score += 0.5;
  }
  if (features.bulk || features.automated) score *= 0.5;
  let level: Urgency = score >= 4 ? "high" : score >= 1.5 ? "medium" : "low";
  if ((features.bulk || features.automated) && level === "high") level = "medium";
  return { level, score, deadline, replyNeeded, question, reasons };
}
