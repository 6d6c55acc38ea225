/**
 * The words a spam model reads of a mail: its subject's words (prefixed "s:", since a word in a
 * subject says more than the same word in a body) and the words of its body text, each counted
 * once. Scripts written without spaces (Chinese, Japanese, Korean, Thai) give one token per
 * character, so mail in those scripts is read too.
 */

const MAX_BODY_CHARS = 6000;
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'$%-]*/gu;
const UNSPACED_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/gu;
const MAX_WORD = 24;

function addWords(out: Set<string>, text: string, prefix: string): void {
  for (const match of text.toLowerCase().matchAll(WORD)) {
    const word = match[0].replace(/(?<!['-])['-]+$/, "");
    if (word.length < 2 || word.length > MAX_WORD) continue;
    // Digits carry their shape, not their value: "$19.95" and "$24.50" are the same kind of token.
    out.add(prefix + word.replace(/\d/g, "9"));
  }
  for (const match of text.matchAll(UNSPACED_SCRIPT)) out.add(`${prefix}${match[0]}`);
}

export function spamTokens(subject: string, bodyText: string): Set<string> {
  const out = new Set<string>();
  addWords(out, subject, "s:");
  addWords(out, bodyText.slice(0, MAX_BODY_CHARS), "");
  return out;
}
