import type { Tone } from "../../../contract/ai.ts";

/**
 * The local text improver: deterministic edits a careful colleague would make, nothing random.
 * Each rule is small and testable; the order matters (spacing before capitalisation).
 */

/** Common misspellings in email, lower-case. Kept short and unambiguous. */
const MISSPELLINGS: Record<string, string> = {
  teh: "the",
  recieve: "receive",
  recieved: "received",
  seperate: "separate",
  definately: "definitely",
  occured: "occurred",
  untill: "until",
  wich: "which",
  acheive: "achieve",
  adress: "address",
  begining: "beginning",
  beleive: "believe",
  calender: "calendar",
  accomodate: "accommodate",
  enviroment: "environment",
  goverment: "government",
  tommorow: "tomorrow",
  tomorow: "tomorrow",
  wierd: "weird",
  alot: "a lot",
  thier: "their",
  truely: "truly",
  neccessary: "necessary",
  occassion: "occasion",
  publically: "publicly",
  reccomend: "recommend",
  recomend: "recommend",
  sucessful: "successful",
  succesful: "successful",
  existance: "existence",
  foward: "forward",
  freind: "friend",
  garantee: "guarantee",
  independant: "independent",
  liason: "liaison",
  managment: "management",
  noticable: "noticeable",
  persue: "pursue",
  prefered: "preferred",
  questionaire: "questionnaire",
  refered: "referred",
  relevent: "relevant",
  responsability: "responsibility",
  shedule: "schedule",
  similiar: "similar",
  tounge: "tongue",
  dont: "don't",
  cant: "can't",
  wont: "won't",
  im: "I'm",
  ive: "I've",
  thats: "that's",
  doesnt: "doesn't",
  isnt: "isn't",
  didnt: "didn't",
};

/** Filler words and hedges that weaken business mail; removed where they stand alone. */
const FILLERS = [
  /\b(just|really|very|basically|actually|literally|totally|simply) (?=\w)/gi,
  /\b(kind of|sort of) (?=\w)/gi,
  /\bI think that (?=\w)/gi,
  /,? you know,?/gi,
];

/** Tone adjustments: casual words swapped for the agent's register. */
const FORMAL_SWAPS: Array<[RegExp, string]> = [
  [/\bhey\b/gi, "Hello"],
  [/\bhi\b(?=\s+\w+,)/gi, "Hello"],
  [/\bthanks\b/gi, "Thank you"],
  [/\bthx\b/gi, "Thank you"],
  [/\bgonna\b/gi, "going to"],
  [/\bwanna\b/gi, "want to"],
  [/\bgotta\b/gi, "have to"],
  [/\byeah\b/gi, "yes"],
  [/\bnope\b/gi, "no"],
  [/\basap\b/gi, "as soon as possible"],
  [/\bfyi\b/gi, "for your information"],
  [/\bcheers\b/gi, "Best regards"],
];
const WARM_SWAPS: Array<[RegExp, string]> = [
  [/\bregards\b/gi, "warm regards"],
  [/\bthanks\b/gi, "thank you so much"],
];

function keepCase(original: string, replacement: string): string {
  return original[0] && original[0] === original[0].toUpperCase() && original[0] !== original[0].toLowerCase()
    ? replacement.charAt(0).toUpperCase() + replacement.slice(1)
    : replacement;
}

function fixSpelling(text: string): string {
  return text.replace(/\b[A-Za-z]+\b/g, (word) => {
    const fix = MISSPELLINGS[word.toLowerCase()];
    return fix ? keepCase(word, fix) : word;
  });
}

function fixSpacing(text: string): string {
  return text
    .replace(/[ \t]{2,}/g, " ")
    .replace(/(?<! ) +([,.!?;:])/g, "$1")
    .replace(/([,;:])(?=[A-Za-z])/g, "$1 ")
    .replace(/([.!?])(?=[A-Z][a-z])/g, "$1 ")
    .replace(/(?<![ \t])[ \t]+$/gm, "")
    .replace(/([!?]){2,}/g, "$1")
    .replace(/\.{4,}/g, "...");
}

function fixDoubledWords(text: string): string {
  // "had had" and "that that" are grammatical; leave them. Only same-line repeats count.
  return text.replace(/\b(\w+)([ \t]+)\1\b/gi, (match, word: string) =>
    /^(had|that)$/i.test(word) ? match : word,
  );
}

function fixCapitalisation(text: string): string {
  return text
    .replace(/\bi\b(?!\.e\.)/g, "I")
    .replace(/\bi'(m|ve|ll|d)\b/g, "I'$1")
    .replace(/(^|[.!?]\s+|(?<!\n)\n\s*)([a-z])/g, (_m, lead: string, c: string) => lead + c.toUpperCase());
}

function removeFillers(text: string): string {
  let out = text;
  for (const re of FILLERS) out = out.replace(re, "");
  return out;
}

function adjustTone(text: string, tone: Tone): string {
  let out = text;
  if (tone === "Professional" || tone === "Formal") {
    for (const [re, to] of FORMAL_SWAPS) out = out.replace(re, (m) => keepCase(m, to));
    if (tone === "Formal") out = out.replace(/!/g, ".");
  } else if (tone === "Warm") {
    for (const [re, to] of WARM_SWAPS) out = out.replace(re, (m) => keepCase(m, to));
  }
  return out;
}

/**
 * Ends a line with a full stop when the next line of the same paragraph starts a new sentence
 * ("I need more time\nThank you" would otherwise read "more time Thank you" wherever lines are
 * joined). Short lines (a greeting, "Best regards", a name) are left alone.
 */
function closeLines(para: string): string {
  const lines = para.split("\n");
  return lines
    .map((line, i) => {
      const next = lines[i + 1]?.trim() ?? "";
      const words = line.trim().split(/\s+/).filter(Boolean).length;
      if (!next || words <= 3 || !/^[A-Z]/.test(next)) return line;
      return /[\w)"']$/.test(line.trimEnd()) ? `${line.trimEnd()}.` : line;
    })
    .join("\n");
}

/** Ends the last sentence of each paragraph with punctuation when it has none. */
function closeSentences(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((raw) => {
      const para = closeLines(raw);
      const lines = para.split("\n");
      // A one-line paragraph of a few words is a greeting, sign-off or signature: leave it.
      if (lines.length === 1 && para.trim().split(/\s+/).length <= 3) return para;
      return /[\w)"']$/.test(para.trimEnd()) && !/[,:;]$/.test(para.trimEnd()) ? `${para.trimEnd()}.` : para;
    })
    .join("\n\n");
}

/** Deterministic improvements in a fixed order; running it twice changes nothing more. */
export function improveLocally(text: string, tone: Tone): string {
  let out = text.replace(/\r\n/g, "\n");
  out = fixSpacing(out);
  out = fixSpelling(out);
  out = fixDoubledWords(out);
  out = removeFillers(out);
  out = adjustTone(out, tone);
  out = fixSpacing(out);
  out = fixCapitalisation(out);
  out = closeSentences(out);
  return out.trim();
}
