/**
 * Phishing verdicts on bench/ai/labels/phishing-set.json: hand-written hostile samples and normal
 * mail (corpus ham ids plus hand-written genuine brand notices). Positive = verdict not "safe".
 * The user's contacts are taken to include acme.com (some samples imitate it).
 * Run: npx tsx bench/ai/phishing.ts
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { SecurityScan } from "../../contract/ai.ts";
import { scanEmail } from "../../server/ai/local/security/scan.ts";
import { bodyToText } from "../../server/ai/local/text-cleaning.ts";
import { corpusIndex, readRaw, toAnalyzerInput } from "./corpus.ts";
import { appendResults, machineLine, pct, shouldAppend } from "./report.ts";

interface WrittenSample {
  kind: "hostile" | "normal";
  from: { name: string; address: string };
  replyTo?: Array<{ name: string; address: string }>;
  subject: string;
  text: string;
  html?: string;
  attachments?: Array<{ filename: string }>;
  authenticationResults?: string;
  note: string;
}
interface CorpusSample {
  kind: "normal";
  group: string;
  id: string;
  note: string;
}
interface PhishingSet {
  contactDomains: string[];
  hostile: WrittenSample[];
  normal: Array<WrittenSample | CorpusSample>;
}

async function scan(sample: WrittenSample | CorpusSample, contactDomains: string[]): Promise<SecurityScan> {
  if ("group" in sample) {
    const { dir } = corpusIndex();
    const input = await toAnalyzerInput(readRaw(dir, { ...sample, path: `${sample.group}/${sample.id}` }));
    return scanEmail(
      {
        from: input.from,
        replyTo: input.replyTo ?? [],
        subject: input.subject,
        text: bodyToText(input.bodyText, input.bodyHtml),
        html: input.bodyHtml,
        attachments: input.attachments ?? [],
        authenticationResults: input.headers?.authenticationResults ?? null,
      },
      { contactDomains },
    );
  }
  return scanEmail(
    {
      from: sample.from,
      replyTo: sample.replyTo ?? [],
      subject: sample.subject,
      text: sample.text,
      html: sample.html ?? null,
      attachments: sample.attachments ?? [],
      authenticationResults: sample.authenticationResults ?? null,
    },
    { contactDomains },
  );
}

export async function runPhishingBench(): Promise<{ markdown: string; precision: number; recall: number }> {
  const set = JSON.parse(
    readFileSync(join(import.meta.dirname, "labels", "phishing-set.json"), "utf8"),
  ) as PhishingSet;
  const verdicts = {
    hostile: { safe: 0, suspicious: 0, dangerous: 0 },
    normal: { safe: 0, suspicious: 0, dangerous: 0 },
  };
  const falsePositiveCodes = new Map<string, number>();
  for (const sample of set.hostile) verdicts.hostile[(await scan(sample, set.contactDomains)).verdict]++;
  for (const sample of set.normal) {
    const result = await scan(sample, set.contactDomains);
    verdicts.normal[result.verdict]++;
    if (result.verdict !== "safe") {
      for (const r of result.reasons)
        falsePositiveCodes.set(r.code, (falsePositiveCodes.get(r.code) ?? 0) + 1);
    }
  }
  const tp = verdicts.hostile.suspicious + verdicts.hostile.dangerous;
  const fp = verdicts.normal.suspicious + verdicts.normal.dangerous;
  const precision = tp + fp === 0 ? 0 : tp / (tp + fp);
  const recall = tp / set.hostile.length;
  const markdown = [
    "## AI: phishing verdicts (security scan)",
    "",
    machineLine(),
    "",
    `Set: bench/ai/labels/phishing-set.json, ${set.hostile.length} hostile (hand-written), ${set.normal.length} normal. Positive = verdict not "safe".`,
    "",
    "In-sample: the hostile samples were written by the engineer who wrote the rules, and the two false positives of the first run (slack.net, outlook.4team.biz; precision 95.6%) were fixed on this set. Expect lower figures on real-world phishing.",
    "",
    "| | safe | suspicious | dangerous |",
    "| --- | --- | --- | --- |",
    `| hostile | ${verdicts.hostile.safe} | ${verdicts.hostile.suspicious} | ${verdicts.hostile.dangerous} |`,
    `| normal | ${verdicts.normal.safe} | ${verdicts.normal.suspicious} | ${verdicts.normal.dangerous} |`,
    "",
    `Precision ${pct(precision)}, recall ${pct(recall)}. Reasons behind false positives: ${
      [...falsePositiveCodes.entries()].map(([code, n]) => `${code} ×${n}`).join(", ") || "none"
    }.`,
  ].join("\n");
  return { markdown, precision, recall };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { markdown } = await runPhishingBench();
  process.stdout.write(`${markdown}\n`);
  if (shouldAppend()) appendResults(markdown);
}
