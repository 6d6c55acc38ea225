// scratch: shows the analysis of named dev cases (deleted before commit)
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { analyzeEmail } from "../../server/ai/local/analyze.ts";

const [file, ...subjects] = process.argv.slice(2);
const data = JSON.parse(readFileSync(join(import.meta.dirname, "labels", file as string), "utf8"));
for (const c of data.dev as Array<{
  subject: string;
  from: { name: string; address: string };
  text: string;
  foreign?: string[];
  id?: string;
}>) {
  if (!subjects.some((s) => c.subject.includes(s) || c.id === s)) continue;
  const a = analyzeEmail(
    {
      from: c.from,
      subject: c.subject,
      bodyText: c.text,
      bodyHtml: null,
      receivedAt: new Date("2025-03-11T09:30:00Z"),
    },
    {},
  );
  console.log(
    "=====",
    c.subject,
    "\n--- TEXT\n" +
      c.text +
      "\n--- SUMMARY\n" +
      a.summary +
      "\n--- KEY\n" +
      a.keyPoints.join("\n") +
      "\n--- FOREIGN\n" +
      (c.foreign ?? []).join("\n") +
      "\n--- ACTIONS " +
      JSON.stringify(a.suggestedActions) +
      " " +
      a.responseTime,
  );
}
