/**
 * Random texts of up to `maxPieces` pieces, from a fixed seed so a failure can be replayed: the
 * tests that prove a rewritten pattern or scan answers as the old one did compare both on these.
 */
export function randomTexts(pieces: readonly string[], count: number, maxPieces: number): string[] {
  let seed = 34;
  const next = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  return Array.from({ length: count }, () =>
    Array.from(
      { length: Math.floor(next() * (maxPieces + 1)) },
      () => pieces[Math.floor(next() * pieces.length)] ?? "",
    ).join(""),
  );
}
