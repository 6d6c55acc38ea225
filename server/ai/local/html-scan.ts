/**
 * htmlToText's passes over a sender's HTML, each in one pass with the output of the regex it
 * replaces (named on each). Those regexes rescanned the rest of the text from every opening that
 * nothing closes (an unclosed "<!--", "<li", "<script", or "<" with no ">" within 2,000
 * characters): quadratic, 0.4 to 7.7 s on 150 KB of them (issue 34). Here an opening's close is
 * looked up once, and a missing close is remembered.
 */

/**
 * Replaces each match of `open` (global, anchored on a "<") plus its close by `by`. `closeEnd`
 * gives where the close ends for an opening, or -1 when it has none (the regex fails there and
 * tries the next opening).
 */
function replaceOpened(
  html: string,
  open: RegExp,
  closeEnd: (match: RegExpExecArray) => number,
  by: string,
): string {
  const parts: string[] = [];
  let from = 0;
  open.lastIndex = 0;
  for (let match = open.exec(html); match !== null; match = open.exec(html)) {
    const end = closeEnd(match);
    if (end === -1) continue;
    parts.push(html.slice(from, match.index), by);
    from = end;
    open.lastIndex = end;
  }
  if (from === 0) return html;
  parts.push(html.slice(from));
  return parts.join("");
}

/** The first ">" at or after a position, asked for in increasing order: each ">" is found once. */
function nextCloser(html: string): (at: number) => number {
  let found = -2;
  return (at) => {
    if (found === -1 || found >= at) return found;
    found = html.indexOf(">", at);
    return found;
  };
}

/**
 * `html.replace(/<!--[\s\S]*?-->/g, " ")`. "<!-->" does not close itself: the "-->" is looked for
 * after the whole "<!--". When one "<!--" finds no "-->" after it, no later one can.
 */
export function commentsToSpaces(html: string): string {
  let noClose = false;
  return replaceOpened(
    html,
    /<!--/g,
    (m) => {
      if (noClose) return -1;
      const close = html.indexOf("-->", m.index + 4);
      noClose = close === -1;
      return noClose ? -1 : close + 3;
    },
    " ",
  );
}

const HIDDEN_ELEMENTS = /<(script|style|head|title|noscript)\b/gi;
const HIDDEN_CLOSES = /<\/(script|style|head|title|noscript)\s*>/gi;

/**
 * `html.replace(/<(script|style|head|title|noscript)\b[\s\S]*?<\/\1\s*>/gi, " ")`: an element with
 * its content goes, up to the first close tag of the same name (in any case) after its name.
 */
export function hiddenElementsToSpaces(html: string): string {
  // Each name's close tags, in order: [start, end]. A close tag holds no "<" after its first
  // character, so the global scan misses none.
  const closes = new Map<string, Array<[number, number]>>();
  HIDDEN_CLOSES.lastIndex = 0;
  for (let m = HIDDEN_CLOSES.exec(html); m !== null; m = HIDDEN_CLOSES.exec(html)) {
    const name = (m[1] ?? "").toLowerCase();
    const list = closes.get(name) ?? [];
    list.push([m.index, m.index + m[0].length]);
    closes.set(name, list);
  }
  // Openings come in increasing order, so each name's next close only moves forward.
  const next = new Map<string, number>();
  return replaceOpened(
    html,
    HIDDEN_ELEMENTS,
    (m) => {
      const name = (m[1] ?? "").toLowerCase();
      const list = closes.get(name) ?? [];
      const contentStart = m.index + m[0].length;
      let k = next.get(name) ?? 0;
      while (k < list.length && (list[k]?.[0] ?? 0) < contentStart) k++;
      next.set(name, k);
      return list[k]?.[1] ?? -1;
    },
    " ",
  );
}

/** `html.replace(/<(li)\b[^>]*>/gi, "\n• ")`. */
export function listItemsToBullets(html: string): string {
  const closer = nextCloser(html);
  return replaceOpened(
    html,
    /<li\b/gi,
    (m) => {
      const close = closer(m.index + 3);
      return close === -1 ? -1 : close + 1;
    },
    "\n• ",
  );
}

/** `html.replace(/<[^>]{0,2000}>/g, " ")`: a tag of 2,000 characters or fewer between its brackets. */
export function shortTagsToSpaces(html: string): string {
  const closer = nextCloser(html);
  return replaceOpened(
    html,
    /</g,
    (m) => {
      const close = closer(m.index + 1);
      return close !== -1 && close - m.index - 1 <= 2000 ? close + 1 : -1;
    },
    " ",
  );
}
