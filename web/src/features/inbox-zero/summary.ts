/** Words in lower case, punctuation, quotes and ellipses dropped ("Don't" stays one word). */
function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu) ?? [];
}

/** Whether `run` appears in `within` word for word, in one piece. */
function containsRun(within: string[], run: string[]): boolean {
  for (let start = 0; start + run.length <= within.length; start++) {
    if (run.every((word, i) => within[start + i] === word)) return true;
  }
  return false;
}

/** How many words both start with; the snippet's last word may be cut ("contr" of "contract"). */
function sharedStart(snippet: string[], summary: string[]): number {
  let n = 0;
  while (n < snippet.length && n < summary.length) {
    const a = snippet[n] ?? "";
    const b = summary[n] ?? "";
    if (a !== b && !(n === snippet.length - 1 && b.startsWith(a))) break;
    n++;
  }
  return n;
}

/** A summary starting like the snippet for this share of its words mostly repeats it. */
const REPEAT_SHARE = 0.8;

/**
 * Whether an AI summary tells more than the snippet the card shows above it. A short mail's
 * summary is often its first sentence, which the snippet already shows word for word; a card
 * that says it twice only takes room.
 */
export function summaryAddsToSnippet(summary: string | null, snippet: string): summary is string {
  const told = words(summary ?? "");
  if (told.length === 0) return false;
  const shown = words(snippet);
  if (containsRun(shown, told)) return false;
  return sharedStart(shown, told) < told.length * REPEAT_SHARE;
}
