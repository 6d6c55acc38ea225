/** True when the text contains one of the forbidden phrases (case-insensitive, whole words). */
export function containsForbidden(text: string, phrases: readonly string[]): boolean {
  return phrases.some((p) => patternFor(p).test(text));
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function patternFor(phrase: string): RegExp {
  const body = escapeRegExp(phrase.trim()).replace(/\s+/g, "\\s+");
  // Word boundaries only where the phrase starts/ends with a word character ("ASAP!" still matches).
  const start = /^\w/.test(phrase.trim()) ? "\\b" : "";
  const end = /\w$/.test(phrase.trim()) ? "\\b" : "";
  return new RegExp(`${start}${body}${end}`, "gi");
}

/**
 * Removes every forbidden phrase and tidies what is left (doubled spaces, space before
 * punctuation, empty lines the removal created). Checked after every generation, whichever engine.
 */
export function stripForbidden(text: string, phrases: readonly string[]): string {
  let out = text;
  for (const p of phrases) {
    if (p.trim()) out = out.replace(patternFor(p), "");
  }
  return out
    .replace(/[ \t]{2,}/g, " ")
    .replace(/(?<! ) +([,.!?;:])/g, "$1")
    .replace(/([,;:])(?=[.!?])/g, "")
    .replace(/^[ \t,;:]+/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
