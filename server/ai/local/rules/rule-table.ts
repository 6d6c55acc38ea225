import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The analyzer's phrase rules as tables (issue 40, decision 0058): one `.rules` file per area in
 * this folder, one phrase pattern per line, grouped in families. A table reads like a list a person
 * can review; the code asks for a family's compiled RegExp by name. The file format:
 *
 *   == complaint /\b(?:{phrases})\b/i
 *   # What the family catches and why (at least one comment line, right under the heading).
 *   unacceptable
 *   (?<!\bwould be )disappointed
 *
 * `{phrases}` in the heading's pattern is replaced by the family's phrases joined with `|`. Every
 * phrase must compile on its own (so no phrase spans two lines), no line is over 200 characters,
 * and a line is taken exactly as written, so none may start or end with a space (write `\x20`).
 * Blank lines and further `#` lines inside a family are allowed.
 */

export const RULES_DIR = fileURLToPath(new URL(".", import.meta.url));
export const MAX_RULE_LINE = 200;

export class RuleTableError extends Error {
  constructor(file: string, line: number, problem: string) {
    super(`Mailwise cannot start: rule table ${file}${line > 0 ? `:${line}` : ""}: ${problem}`);
    this.name = "RuleTableError";
  }
}

interface Family {
  name: string;
  template: string;
  flags: string;
  about: string[];
  phrases: string[];
  line: number;
}

const HEADING = /^== ([a-z][a-z0-9-]*) \/(.*)\/([dgimsuy]*)$/;

/** Parses a table's text; `file` names it in errors. Exported for tests. */
export function parseRuleTable(file: string, text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  let current: Family | null = null;
  const lines = text.split("\n");
  for (const [index, raw] of lines.entries()) {
    const line = index + 1;
    const fail = (problem: string): never => {
      throw new RuleTableError(file, line, problem);
    };
    if (raw.length > MAX_RULE_LINE) fail(`line is ${raw.length} characters, over ${MAX_RULE_LINE}`);
    if (raw.trim() === "") continue;
    if (raw !== raw.trim()) fail("a line may not start or end with a space (write \\x20)");
    if (raw.startsWith("==")) {
      const heading = HEADING.exec(raw);
      if (!heading) fail("a family heading reads `== name /pattern with {phrases}/flags`");
      const [, name = "", template = "", flags = ""] = heading ?? [];
      if (families.has(name)) fail(`family "${name}" is defined twice`);
      if (!template.includes("{phrases}")) fail("the heading's pattern has no {phrases}");
      current = { name, template, flags, about: [], phrases: [], line };
      families.set(name, current);
      continue;
    }
    if (!current) {
      if (!raw.startsWith("#")) fail("a phrase before any family heading");
      continue;
    }
    if (raw.startsWith("#")) {
      if (current.phrases.length === 0) current.about.push(raw.replace(/^#\s?/, ""));
      continue;
    }
    try {
      // Sticky: this only checks the phrase compiles; a phrase alone never runs on a text, so the
      // ReDoS check, which sees every RegExp built, must not read it as an unanchored search.
      new RegExp(raw, `${current.flags.replace(/[gy]/g, "")}y`);
    } catch (error) {
      fail(`phrase does not compile on its own: ${(error as Error).message}`);
    }
    current.phrases.push(raw);
  }
  for (const family of families.values()) {
    if (family.about.length === 0)
      throw new RuleTableError(
        file,
        family.line,
        `family "${family.name}" has no comment saying what it catches`,
      );
    if (family.phrases.length === 0)
      throw new RuleTableError(file, family.line, `family "${family.name}" has no phrases`);
  }
  return families;
}

/** One area's table: compiled families, each built once. */
export class RuleTable {
  private readonly compiled = new Map<string, RegExp>();
  private readonly asked = new Set<string>();

  constructor(
    readonly file: string,
    private readonly families: Map<string, Family>,
  ) {}

  /** The family's RegExp, compiled on first use and shared after (mind lastIndex with /g). */
  regex(name: string): RegExp {
    const family = this.families.get(name);
    if (!family) throw new RuleTableError(this.file, 0, `no family "${name}"`);
    this.asked.add(name);
    let made = this.compiled.get(name);
    if (!made) {
      const source = family.template.replace("{phrases}", () => family.phrases.join("|"));
      try {
        made = new RegExp(source, family.flags);
      } catch (error) {
        throw new RuleTableError(
          this.file,
          family.line,
          `family "${name}" does not compile: ${(error as Error).message}`,
        );
      }
      this.compiled.set(name, made);
    }
    return made;
  }

  /** The family's phrases as written (for code that needs the list, not a pattern). */
  phrases(name: string): readonly string[] {
    const family = this.families.get(name);
    if (!family) throw new RuleTableError(this.file, 0, `no family "${name}"`);
    this.asked.add(name);
    return family.phrases;
  }

  /** Every family's name, in file order. */
  names(): string[] {
    return [...this.families.keys()];
  }

  /** Families no code has asked for yet: a test holds that none is left over once the analyzer loads. */
  unused(): string[] {
    return this.names().filter((name) => !this.asked.has(name));
  }
}

const tables = new Map<string, RuleTable>();

/** The table `server/ai/local/rules/<area>.rules`, read and checked once per process. */
export function ruleTable(area: string): RuleTable {
  let table = tables.get(area);
  if (!table) {
    const file = `server/ai/local/rules/${area}.rules`;
    let text: string;
    try {
      text = readFileSync(join(RULES_DIR, `${area}.rules`), "utf8");
    } catch (error) {
      throw new RuleTableError(
        file,
        0,
        `cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})`,
      );
    }
    table = new RuleTable(file, parseRuleTable(file, text));
    tables.set(area, table);
  }
  return table;
}

/** Every table read so far (the unused-family test and the ReDoS check walk them). */
export function loadedRuleTables(): RuleTable[] {
  return [...tables.values()];
}
