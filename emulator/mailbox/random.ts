import { createHash } from "node:crypto";

/** A small seeded PRNG (mulberry32): the same seed always yields the same mailbox. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A stable number in [0, 1) for a string, for decisions that must not depend on order. */
export function hashUnit(text: string): number {
  return createHash("sha1").update(text).digest().readUInt32BE(0) / 4294967296;
}

export function pick<T>(items: readonly T[], random: () => number): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new RangeError("pick from an empty list");
  return item;
}
