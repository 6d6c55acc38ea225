import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RULES_DIR, ruleTable } from "../../server/ai/local/rules/rule-table.ts";
import { ALLOWED, NOT_RUN, NOT_YET_FIXED } from "./allow-list.ts";
import type { ConstructedRegex } from "./constructed-regexes.ts";
import { regexesInSources } from "./find-regexes.ts";
import { superLinearCauses } from "./super-linear.ts";

const root = join(import.meta.dirname, "..", "..");
// rule-table.ts compiles each phrase alone (a syntax check, never run on a text) and each family:
// the families are checked directly, table by table, in the last test below.
const RULE_TABLE = "server/ai/local/rules/rule-table.ts";

// Issue 34: a pattern a sender's text can drive into catastrophic backtracking must not ship.
describe("ReDoS check", () => {
  it("reports the classic bad patterns and passes a linear one", () => {
    expect(superLinearCauses("(a+)+$", "")[0]).toContain("exponential");
    expect(superLinearCauses(String.raw`^\s*\w+\s*\w+$`, "")[0]).toContain("polynomial");
    expect(superLinearCauses("<[^>]*>", "g")[0]).toContain("quadratic search");
    expect(superLinearCauses(String.raw`\b(?:yes|no)\b`, "i")).toEqual([]);
  });

  it("finds literals and RegExp calls in TypeScript source", async () => {
    const { regexesInFile } = await import("./find-regexes.ts");
    const found = regexesInFile(
      "x.ts",
      'const a = /(a+)+$/i;\nconst b = new RegExp(String.raw`\\d+`, "g");\nconst c = new RegExp(prefix + word);\n',
    );
    expect(found.literals.map((l) => [l.line, l.source, l.flags])).toEqual([
      [1, "(a+)+$", "i"],
      [2, String.raw`\d+`, "g"],
    ]);
    expect(found.dynamicSites).toEqual([{ file: "x.ts", line: 3 }]);
  });

  it("no regex in server, web or contract can take super-linear time", () => {
    const { literals, dynamicSites } = regexesInSources(root);
    // The computed patterns are read from a run: their modules load and the analyzer reads the
    // dev mail set under a hook on the RegExp constructor, in a process of its own.
    const run = JSON.parse(
      execFileSync(
        process.execPath,
        ["--import", "tsx", join(import.meta.dirname, "constructed-regexes.ts")],
        { cwd: root, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
      ),
    ) as ConstructedRegex[];
    const built = run.filter((b) => b.file !== RULE_TABLE);

    const notRun = dynamicSites.filter(
      (site) =>
        site.file !== RULE_TABLE &&
        !built.some((b) => b.file === site.file && b.line === site.line) &&
        !NOT_RUN.some((n) => n.file === site.file),
    );
    expect(notRun, "RegExp built from computed text that the collector never ran").toEqual([]);

    const unique = new Map<string, { file: string; line: number; source: string; flags: string }>();
    for (const r of [...literals, ...built]) unique.set(`${r.file}\0${r.source}\0${r.flags}`, r);
    const offenders: string[] = [];
    const listed = [...ALLOWED, ...NOT_YET_FIXED];
    const listedSeen = new Set<(typeof listed)[number]>();
    for (const r of unique.values()) {
      const causes = superLinearCauses(r.source, r.flags);
      if (causes.length === 0) continue;
      const entry = listed.find((a) => a.file === r.file && a.source === r.source);
      if (entry) listedSeen.add(entry);
      else offenders.push(`${r.file}:${r.line} /${r.source.slice(0, 120)}/${r.flags}: ${causes.join("; ")}`);
    }
    expect(offenders).toEqual([]);
    // An entry whose pattern was fixed or removed goes, so the list cannot grow stale.
    expect(listed.filter((a) => !listedSeen.has(a))).toEqual([]);
  });

  // Issue 40: the analyzer's phrase rules live in tables; every family of every table is checked
  // as compiled, whether or not the dev mail set makes the code ask for it.
  it("no family of any rule table can take super-linear time", () => {
    const areas = readdirSync(RULES_DIR)
      .filter((name) => name.endsWith(".rules"))
      .map((name) => name.slice(0, -".rules".length));
    expect(areas.length).toBeGreaterThan(0);
    const offenders: string[] = [];
    for (const area of areas) {
      const table = ruleTable(area);
      for (const family of table.names()) {
        const { source, flags } = table.regex(family);
        const causes = superLinearCauses(source, flags);
        const listed = [...ALLOWED, ...NOT_YET_FIXED].some(
          (a) => a.file === table.file && a.source === source,
        );
        if (causes.length > 0 && !listed) offenders.push(`${table.file} ${family}: ${causes.join("; ")}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
