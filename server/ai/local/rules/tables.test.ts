import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import "../analyze.ts";
import "../../drafting/local-replies.ts";
import { loadedRuleTables, MAX_RULE_LINE, RULES_DIR, ruleTable } from "./rule-table.ts";

const root = join(RULES_DIR, "..", "..", "..", "..");
const areas = readdirSync(RULES_DIR)
  .filter((name) => name.endsWith(".rules"))
  .map((name) => name.slice(0, -".rules".length));

// Issue 40, decision 0058: the tables in server/ai/local/rules/ hold the analyzer's phrase rules.
describe("the analyzer's rule tables", () => {
  it("are all read once the analyzer has loaded, and every family is used", () => {
    // Read before anything below asks for a table itself: the modules' own loading must reach each.
    const loaded = loadedRuleTables().map((table) => table.file);
    expect(
      areas.map((area) => `server/ai/local/rules/${area}.rules`).filter((f) => !loaded.includes(f)),
    ).toEqual([]);
    const unused = areas.flatMap((area) =>
      ruleTable(area)
        .unused()
        .map((family) => `${area}: ${family}`),
    );
    expect(unused, "a family no code asks for: remove it, or read it").toEqual([]);
  });
});

/**
 * Files of server/ai/ still expected to hold lines over 200 characters, because the helpers that
 * turn them into tables and data files (issue 40) have not landed yet. Empty it as they land: a
 * file listed here whose lines are all short fails the test, so the list cannot go stale.
 */
const STILL_LONG: readonly string[] = [
  // ai-models: the models and their tests.
  "server/ai/local/spam/score.test.ts",
];

function filesUnder(folder: string): string[] {
  return readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return filesUnder(path);
    return /\.ts$|\.rules$/.test(entry.name) ? [path] : [];
  });
}

describe("server/ai/ source lines", () => {
  it(`are at most ${MAX_RULE_LINE} characters`, () => {
    const long = new Map<string, number[]>();
    for (const file of filesUnder("server/ai")) {
      const lines = readFileSync(join(root, file), "utf8").split("\n");
      const over = lines.flatMap((line, i) => (line.length > MAX_RULE_LINE ? [i + 1] : []));
      if (over.length > 0) long.set(file, over);
    }
    const unexpected = [...long].filter(([file]) => !STILL_LONG.includes(file));
    expect(unexpected.map(([file, lines]) => `${file}:${lines.slice(0, 5).join(",")}`)).toEqual([]);
    expect(
      STILL_LONG.filter((file) => !long.has(file)),
      "a file listed as still long has no long line now: take it off",
    ).toEqual([]);
  });
});
