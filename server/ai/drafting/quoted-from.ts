/**
 * The quoted mail's "From:" line, found as `/^From:\s*(?:"?([^"<\n]*)"?\s*)?<?([^>\s]+@[^>\s]+)>?/im`
 * found it (same line, same name and address), in time linear in the text. The pattern's four
 * quantifiers traded spaces and address characters between them: seconds on one long "From:" line
 * of a sender's mail (issue 34). Here each choice the pattern would try is checked in its order,
 * with what it depends on read once beforehand.
 */
export interface QuotedFrom {
  /** Where the match starts, and its text. */
  index: number;
  match: string;
  /** The display name (group 1); undefined when the pattern skipped its group. */
  name: string | undefined;
  /** The address (group 2). */
  address: string;
}

const SPACE = /\s/;
const FROM = /^from:$/i;
const LINE_BREAK = /[\n\r\u2028\u2029]/;

export function quotedFrom(text: string): QuotedFrom | null {
  const n = text.length;
  const space: boolean[] = [];
  for (let i = 0; i < n; i++) space.push(SPACE.test(text[i] ?? ""));
  // The first character at or after i that is not white space (n when none).
  const nextNonSpace = new Int32Array(n + 1);
  nextNonSpace[n] = n;
  for (let i = n - 1; i >= 0; i--) nextNonSpace[i] = space[i] ? (nextNonSpace[i + 1] ?? n) : i;
  // A token is a run of [^>\s]: where the token through i ends, and its last "@" up to i.
  const token = (i: number) => i < n && !space[i] && text[i] !== ">";
  const tokenEnd = new Int32Array(n + 1);
  tokenEnd[n] = n;
  for (let i = n - 1; i >= 0; i--)
    tokenEnd[i] = token(i) ? (token(i + 1) ? (tokenEnd[i + 1] ?? n) : i + 1) : i;
  const lastAt = new Int32Array(n);
  for (let i = 0; i < n; i++)
    lastAt[i] = !token(i) ? -1 : text[i] === "@" ? i : i > 0 && token(i - 1) ? (lastAt[i - 1] ?? -1) : -1;

  // [^>\s]+@[^>\s]+ at t: an "@" in t's token with a character before it and one after it.
  const address = (t: number) => {
    if (!token(t)) return false;
    const end = tokenEnd[t] ?? t;
    return end - 2 >= t + 1 && (lastAt[end - 2] ?? -1) >= t + 1;
  };
  // \s*<?(address) from u: inside the spaces no address starts, so only after them.
  const addressAfter = (u: number) => {
    const v = nextNonSpace[u] ?? n;
    if (text[v] === "<" && address(v + 1)) return v + 1;
    return address(v) ? v : -1;
  };
  // "?([^"<\n]*)"?\s*<?(address) with the name starting at q: the longest name first.
  const named = (q: number): [number, number, number] | null => {
    let end = q;
    while (end < n && text[end] !== '"' && text[end] !== "<" && text[end] !== "\n") end++;
    for (let r = end; r >= q; r--) {
      if (text[r] === '"') {
        const t = addressAfter(r + 1);
        if (t !== -1) return [r, r + 1, t];
      }
      const t = addressAfter(r);
      if (t !== -1) return [r, r, t];
    }
    return null;
  };
  const at = (start: number): QuotedFrom | null => {
    // \s* gives back spaces only to retry what the name's run already tried: the longest is enough.
    const p = nextNonSpace[start + 5] ?? n;
    let name: string | undefined;
    let t = -1;
    for (const q of text[p] === '"' ? [p + 1, p] : [p]) {
      const found = named(q);
      if (found) {
        // A name group that took nothing fails (an optional group may not match empty): the
        // pattern then skips it and finds the same address with no name.
        name = (nextNonSpace[found[1]] ?? n) === p ? undefined : text.slice(q, found[0]);
        t = found[2];
        break;
      }
    }
    // Skipping the name group tries addressAfter(p) again, which the empty name at p did.
    if (t === -1) return null;
    const end = tokenEnd[t] ?? t;
    const close = text[end] === ">" ? end + 1 : end;
    return { index: start, match: text.slice(start, close), name, address: text.slice(t, end) };
  };

  for (let start = 0; start + 5 <= n; start++) {
    if (start > 0 && !LINE_BREAK.test(text[start - 1] ?? "")) continue;
    if (!FROM.test(text.slice(start, start + 5))) continue;
    const found = at(start);
    if (found) return found;
  }
  return null;
}
