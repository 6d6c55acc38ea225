/**
 * Every `<...>` replaced by one space, as `html.replace(/<[^>]*>/g, " ")` (or `/<[^>]+>/g` with
 * `allowEmpty` false) gave it, in one pass. The pattern rescanned the rest of the text from each
 * "<" that no ">" follows, so a sender's run of "<" cost quadratic time (issue 34).
 */
export function tagsToSpaces(html: string, allowEmpty = true): string {
  let out = "";
  let from = 0;
  for (let open = html.indexOf("<"); open !== -1; open = html.indexOf("<", open + 1)) {
    const close = html.indexOf(">", open + 1);
    // No ">" after this "<": none after any later "<" either.
    if (close === -1) break;
    if (close === open + 1 && !allowEmpty) continue;
    out += `${html.slice(from, open)} `;
    from = close + 1;
    open = close;
  }
  return out + html.slice(from);
}
