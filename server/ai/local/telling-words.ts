/**
 * The evidence of a word model in the manner of Graham's "A Plan for Spam": the weights of the
 * mail's words that the model knows, of which only the `count` most telling (largest in size)
 * are summed, so a long mail does not pile up evidence by length alone.
 */
export function sumOfMostTelling(
  tokens: Iterable<string>,
  weights: ReadonlyMap<string, number>,
  count: number,
): number {
  const found: number[] = [];
  for (const token of tokens) {
    const w = weights.get(token);
    if (w !== undefined) found.push(w);
  }
  found.sort((a, b) => Math.abs(b) - Math.abs(a));
  let sum = 0;
  for (const w of found.slice(0, count)) sum += w;
  return sum;
}
