import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const RESULTS = join(import.meta.dirname, "..", "RESULTS.md");

/**
 * Replaces the section of bench/RESULTS.md whose "## " heading starts with `headingPrefix` (up to
 * the next "## " heading) with `markdown`, or appends it when there is none. Other sections are
 * left byte for byte as they are, so benches run by different people can update their own sections
 * of the same file. The file is read and written in one step to keep the window for a concurrent
 * writer small; commit RESULTS.md right after.
 */
export function replaceResultsSection(headingPrefix: string, markdown: string): void {
  const text = readFileSync(RESULTS, "utf8");
  const lines = text.split("\n");
  const start = lines.findIndex((l) => l.startsWith(`## ${headingPrefix}`));
  const body = markdown.trimEnd().split("\n");
  if (start === -1) {
    writeFileSync(RESULTS, `${text.trimEnd()}\n\n${body.join("\n")}\n`);
    return;
  }
  let end = lines.findIndex((l, i) => i > start && l.startsWith("## "));
  if (end === -1) end = lines.length;
  const after = lines.slice(end);
  const next = [...lines.slice(0, start), ...body, ...(after.length ? ["", ...after] : [""])];
  writeFileSync(RESULTS, next.join("\n"));
}
