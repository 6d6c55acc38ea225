import { type CorpusMessage, corpusIndex } from "./corpus.ts";

/** Every n-th message of each group (by file name): the deterministic hand-labelled sample. */
const STRIDE: Readonly<Record<string, number>> = {
  "easy-ham-1": 50,
  "easy-ham-2": 28,
  "hard-ham-1": 6,
  "spam-1": 25,
  "spam-2": 35,
};

/**
 * The held-out sample, drawn after the category rules were tuned on the first one: position i (by
 * file name, 0-based) is taken when i % stride === offset. Every offset is non-zero modulo the
 * first sample's stride, so no message is in both. hard-ham-1 (where the direct, work and
 * notification mail is) takes every 3rd message at offset 1 (positions 1, 4, 7, ...) instead of
 * every 6th; the other groups keep their stride and take the message half-way between two of the
 * first sample's.
 */
const HELD_OUT: Readonly<Record<string, { stride: number; offset: number }>> = {
  "easy-ham-1": { stride: 50, offset: 25 },
  "easy-ham-2": { stride: 28, offset: 14 },
  "hard-ham-1": { stride: 3, offset: 1 },
  "spam-1": { stride: 25, offset: 12 },
  "spam-2": { stride: 35, offset: 17 },
};

function pick(rule: Readonly<Record<string, { stride: number; offset: number }>>): {
  dir: string;
  messages: CorpusMessage[];
} {
  const { dir, messages } = corpusIndex();
  const picked: CorpusMessage[] = [];
  for (const [group, { stride, offset }] of Object.entries(rule)) {
    const inGroup = messages.filter((m) => m.group === group).sort((a, b) => a.id.localeCompare(b.id));
    inGroup.forEach((m, i) => {
      if (i % stride === offset) picked.push(m);
    });
  }
  return { dir, messages: picked };
}

export function labelSample(): { dir: string; messages: CorpusMessage[] } {
  return pick(
    Object.fromEntries(Object.entries(STRIDE).map(([group, stride]) => [group, { stride, offset: 0 }])),
  );
}

/** The held-out sample (bench/ai/labels/corpus-buckets-heldout.json), disjoint from labelSample(). */
export function heldOutSample(): { dir: string; messages: CorpusMessage[] } {
  return pick(HELD_OUT);
}
