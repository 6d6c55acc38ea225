import { type CorpusMessage, corpusIndex } from "./corpus.ts";

/** Every n-th message of each group (by file name): the deterministic hand-labelled sample. */
const STRIDE: Readonly<Record<string, number>> = {
  "easy-ham-1": 50,
  "easy-ham-2": 28,
  "hard-ham-1": 6,
  "spam-1": 25,
  "spam-2": 35,
};

export function labelSample(): { dir: string; messages: CorpusMessage[] } {
  const { dir, messages } = corpusIndex();
  const picked: CorpusMessage[] = [];
  for (const [group, stride] of Object.entries(STRIDE)) {
    const inGroup = messages.filter((m) => m.group === group).sort((a, b) => a.id.localeCompare(b.id));
    inGroup.forEach((m, i) => {
      if (i % stride === 0) picked.push(m);
    });
  }
  return { dir, messages: picked };
}
