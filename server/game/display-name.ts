import { ADJECTIVES, ANIMALS } from "./pseudonym.ts";

/**
 * Look-alikes folded to one letter before names are compared: the Cyrillic and Greek letters that
 * pass for Latin ones, the digits and signs people write for letters, and l/1/| read as i. Short
 * and explicit on purpose: it only has to catch the few reserved words below, not all of Unicode's
 * confusables (NFKC and stripping accents already fold full-width and accented forms).
 */
const LOOK_ALIKES: Record<string, string> = Object.fromEntries(
  Object.entries({
    a: "@4аαɑ",
    b: "8вь",
    c: "сϲ",
    d: "ԁ",
    e: "3еєε€",
    g: "9ɡ",
    h: "һн",
    i: "l1|!ıіӏιǀ",
    j: "ј",
    k: "кκ",
    m: "м",
    n: "пη",
    o: "0оοσ",
    p: "рρ",
    q: "ԛ",
    s: "5$ѕ",
    t: "7+тτ",
    u: "υμ",
    v: "νѵ",
    w: "ԝω",
    x: "хχ",
    y: "уγ",
  }).flatMap(([letter, others]) => [...others].map((other) => [other, letter])),
);

/** A name reduced to what it looks like: lower case, no accents, look-alikes folded, letters and digits only. */
function skeleton(text: string): string {
  const folded = [...text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase()]
    .map((c) => LOOK_ALIKES[c] ?? c)
    .join("");
  // "rn" and "vv" pass for "m" and "w" side by side.
  return folded
    .replace(/[^a-z0-9]/g, "")
    .replaceAll("rn", "m")
    .replaceAll("vv", "w");
}

/** Words that would make a name pass for the service or its people; matched as whole words. */
const STAFF_WORDS = [
  "admin",
  "administrator",
  "sysadmin",
  "staff",
  "support",
  "moderator",
  "official",
  "system",
];
const STAFF_SKELETONS = new Set(STAFF_WORDS.flatMap((w) => [skeleton(w), skeleton(`${w}s`)]));
/** The service's own name, refused anywhere in a name ("Mail Wise", "MailwiseTeam"). */
const BRAND = skeleton("mailwise");

const PSEUDONYM_HEADS = new Set(
  ADJECTIVES.flatMap((a) => ANIMALS.map((animal) => skeleton(`${a}${animal}`))),
);

/**
 * A name's words: split at spaces, punctuation and symbols (except the signs written for letters,
 * so "@dmin" stays one word), and where lower case meets upper ("TheAdmin").
 */
function wordsOf(name: string): string[] {
  return name
    .split(/[^\p{L}\p{N}@$|!+€]+/u)
    .flatMap((w) => w.split(/(?<=\p{Ll})(?=\p{Lu})/u))
    .filter((w) => w.length > 0);
}

const LETTER_OR_NUMBER = /[\p{L}\p{N}]/u;
const DIGIT = /\p{Nd}/u;

/**
 * What stands before a name's closing number ("Swift Otter" of "Swift Otter - 42!"), or undefined
 * when it does not end in one: separators, digits, separators, read back from the end. A scan, not
 * a lazy regex, which would try every split of the name (the ReDoS check flags it as polynomial).
 */
function headBeforeNumber(name: string): string | undefined {
  const chars = [...name];
  const skip = (i: number, test: (c: string) => boolean) => {
    let at = i;
    while (at > 0 && test(chars[at - 1] ?? "")) at--;
    return at;
  };
  const separator = (c: string) => !LETTER_OR_NUMBER.test(c);
  const digitsEnd = skip(chars.length, separator);
  const digitsStart = skip(digitsEnd, (c) => DIGIT.test(c));
  if (digitsStart === digitsEnd) return undefined;
  return chars.slice(0, skip(digitsStart, separator)).join("");
}

/**
 * Why a display name (already NFKC-normalised and trimmed) is reserved, or undefined when it is
 * free: the shape of a generated name ("Swift Otter 42", someone else's), or a word that would
 * make it pass for Mailwise staff. Both are compared by skeleton, so look-alikes do not slip by.
 */
export function reservedNameProblem(name: string): string | undefined {
  const head = headBeforeNumber(name);
  if (head !== undefined && PSEUDONYM_HEADS.has(skeleton(head))) {
    return "Display name must not look like a generated leaderboard name";
  }
  if (skeleton(name).includes(BRAND) || wordsOf(name).some((w) => STAFF_SKELETONS.has(skeleton(w)))) {
    return "Display name must not suggest Mailwise staff";
  }
  return undefined;
}
