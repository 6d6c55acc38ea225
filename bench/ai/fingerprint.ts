/**
 * A fingerprint of everything the local analyzer says about every mail the AI benches read: the
 * whole SpamAssassin corpus, the hand-written dev and held-out mail sets, direct mail and the
 * labelled email sentences. A change that must not change behaviour (moving models to data files,
 * rewriting rules as tables) keeps every set's hash; any difference in any analysis of any mail
 * changes it. With --out FILE it also writes one line per mail, to diff against an older run.
 * Run: npx tsx bench/ai/fingerprint.ts [--out /tmp/analysis.jsonl]
 */
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { analyzeEmail } from "../../server/ai/local/analyze.ts";
import type { AnalyzerContext, AnalyzerInput } from "../../server/ai/local/types.ts";
import { corpusIndex, readRaw, toAnalyzerInput } from "./corpus.ts";
import { directMail, emailSentences, loadMailSet, mailInput, requestSentences } from "./trust-data.ts";

const RECEIVED = new Date("2026-01-15T09:00:00Z");
const lines: string[] = [];

function delivered(
  from: { name: string; address: string },
  subject: string,
  text: string,
  to: string,
): AnalyzerInput {
  return {
    from,
    to: [{ name: "", address: to }],
    replyTo: [],
    subject,
    bodyText: text,
    bodyHtml: null,
    receivedAt: RECEIVED,
    headers: { authenticationResults: null, listUnsubscribe: null, inReplyTo: null },
    attachments: [],
  };
}

function hashSet(
  name: string,
  items: Array<{ id: string; input: AnalyzerInput; context: AnalyzerContext }>,
): string {
  const hash = createHash("sha256");
  for (const { id, input, context } of items) {
    const line = `${name}\t${id}\t${JSON.stringify(analyzeEmail(input, context))}`;
    hash.update(line);
    lines.push(line);
  }
  return `${name.padEnd(22)} ${String(items.length).padStart(5)} mails  ${hash.digest("hex").slice(0, 16)}`;
}

const { dir, messages } = corpusIndex();
const corpus = [];
for (const m of messages)
  corpus.push({ id: m.path, input: await toAnalyzerInput(readRaw(dir, m)), context: {} });
const report = [hashSet("spamassassin-corpus", corpus)];
for (const split of ["dev", "heldout"] as const) {
  const set = loadMailSet(split);
  report.push(
    hashSet(
      `mail-${split}`,
      set.mail.map((s) => ({ id: s.id, input: mailInput(s, set), context: set.context })),
    ),
  );
  const owner = "me@example.com";
  report.push(
    hashSet(
      `direct-${split}`,
      directMail(split).map((d, i) => ({
        id: String(i),
        input: {
          ...delivered(d.from, d.subject, d.text, d.owner ?? owner),
          headers: { authenticationResults: null, listUnsubscribe: null, inReplyTo: d.inReplyTo ?? null },
        },
        context: { userAddresses: [d.owner ?? owner], now: RECEIVED },
      })),
    ),
  );
  report.push(
    hashSet(
      `requests-${split}`,
      requestSentences(split).map((text, i) => ({
        id: String(i),
        input: delivered({ name: "Sam Lee", address: "sam@example.org" }, "", text, owner),
        context: { userAddresses: [owner], now: RECEIVED },
      })),
    ),
  );
}
for (const split of ["dev", "heldout", "heldout2"] as const) {
  report.push(
    hashSet(
      `sentences-${split}`,
      emailSentences(split).map((s, i) => ({
        id: String(i),
        input: delivered({ name: "Sam Lee", address: "sam@example.org" }, "", s.text, "me@example.com"),
        context: {},
      })),
    ),
  );
}
const all = createHash("sha256").update(lines.join("\n")).digest("hex").slice(0, 16);
process.stdout.write(`${report.join("\n")}\nall ${lines.length} analyses: ${all}\n`);
const out = process.argv.indexOf("--out");
if (out > 0 && process.argv[out + 1]) writeFileSync(process.argv[out + 1] as string, `${lines.join("\n")}\n`);
