/**
 * The words the word models read of a person's mail (work-or-personal, decision 0045; complaint
 * or information, decision 0048): the subject and the start of the cleaned body (what the
 * category rules read too), lower-cased, as single words and as pairs of neighbouring words
 * ("my son", "the client"), each counted once.
 */

const HEAD_CHARS = 2500;
const WORD = /\p{L}[\p{L}']*/gu;

export function wordsAndPairs(subject: string, text: string): Set<string> {
  const words = [...`${subject}\n${text.slice(0, HEAD_CHARS)}`.toLowerCase().matchAll(WORD)].map((m) => m[0]);
  const out = new Set<string>();
  for (let i = 0; i < words.length; i++) {
    out.add(words[i] ?? "");
    if (i + 1 < words.length) out.add(`${words[i]} ${words[i + 1]}`);
  }
  return out;
}
