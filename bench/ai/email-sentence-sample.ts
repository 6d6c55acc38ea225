/**
 * Draws the email sentences of bench/ai/labels/email-sentences.json from the SpamAssassin corpus:
 * the new text of each message (quoted replies, signatures and footers cut by the analyzer's own
 * cleaning), split into sentences by wink, kept when 5 to 35 words long and not a URL, a header or
 * code. Messages are taken by rule (position i of each ham group, sorted by file name, when
 * i % 9 === 4; spam i % 40 === 20), at most 3 sentences each, in order. The labels were added by
 * hand, blind (the analyzer's output was never shown), before any sentiment change was made.
 * Run: npx tsx bench/ai/email-sentence-sample.ts > /tmp/candidates.json
 */
import { parseText } from "../../server/ai/local/nlp.ts";
import { bodyToText, cleanBody } from "../../server/ai/local/text-cleaning.ts";
import { corpusIndex, readRaw, toAnalyzerInput } from "./corpus.ts";

const RULE: Readonly<Record<string, { stride: number; offset: number }>> = {
  "easy-ham-1": { stride: 9, offset: 4 },
  "easy-ham-2": { stride: 9, offset: 4 },
  "hard-ham-1": { stride: 9, offset: 4 },
  "spam-1": { stride: 40, offset: 20 },
  "spam-2": { stride: 40, offset: 20 },
};

export interface SentenceCandidate {
  source: string;
  text: string;
}

export async function sentenceCandidates(): Promise<SentenceCandidate[]> {
  const { dir, messages } = corpusIndex();
  const out: SentenceCandidate[] = [];
  for (const [group, { stride, offset }] of Object.entries(RULE)) {
    const inGroup = messages.filter((m) => m.group === group).sort((a, b) => a.id.localeCompare(b.id));
    for (let i = offset; i < inGroup.length; i += stride) {
      const message = inGroup[i];
      if (!message) continue;
      const input = await toAnalyzerInput(readRaw(dir, message));
      const text = cleanBody(bodyToText(input.bodyText, input.bodyHtml).slice(0, 6000)).text;
      let taken = 0;
      for (const sentence of parseText(text.slice(0, 3000)).sentences) {
        const s = sentence.text.replace(/\s+/g, " ").trim();
        const words = s.split(" ").length;
        if (words < 5 || words > 35) continue;
        if (/https?:|www\.|@|[{}<>=]|^\W|\b(from|to|subject|date):/i.test(s)) continue;
        out.push({ source: `${group}/${message.id.slice(0, 5)}`, text: s });
        if (++taken >= 3) break;
      }
    }
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(`${JSON.stringify(await sentenceCandidates(), null, 1)}\n`);
}
