import { describe, expect, it } from "vitest";
import { parseRuleTable, RuleTable } from "./rule-table.ts";

const table = (text: string) => new RuleTable("t.rules", parseRuleTable("t.rules", text));

describe("rule tables", () => {
  it("joins a family's phrases into its heading's pattern, once", () => {
    const t = table(
      "== greeting /\\b(?:{phrases})\\b/i\n# Hellos.\nhello\nhi there\n\n# more\ngood (?:morning|day)\n",
    );
    const re = t.regex("greeting");
    expect(re.source).toBe("\\b(?:hello|hi there|good (?:morning|day))\\b");
    expect(re.flags).toBe("i");
    expect(t.regex("greeting")).toBe(re);
    expect(re.test("Good Day to you")).toBe(true);
    expect(re.test("hellothere")).toBe(false);
  });

  it("reports families no code asked for", () => {
    const t = table("== a /{phrases}/\n# A.\nx\n== b /{phrases}/g\n# B.\ny\n");
    t.regex("a");
    expect(t.unused()).toEqual(["b"]);
    expect(t.phrases("b")).toEqual(["y"]);
    expect(t.unused()).toEqual([]);
  });

  it.each([
    ["== a /{phrases}/\nx\n", /t\.rules:1: family "a" has no comment/],
    ["== a /{phrases}/\n# A.\n", /t\.rules:1: family "a" has no phrases/],
    ["== a /x/\n# A.\ny\n", /t\.rules:1: the heading's pattern has no \{phrases\}/],
    ["== a /{phrases}/\n# A.\n(unclosed\n", /t\.rules:3: phrase does not compile on its own/],
    ["== a /{phrases}/\n# A.\nx \n", /t\.rules:3: a line may not start or end with a space/],
    [`== a /{phrases}/\n# A.\n${"x".repeat(201)}\n`, /t\.rules:3: line is 201 characters, over 200/],
    ["x\n", /t\.rules:1: a phrase before any family heading/],
    ["== a /{phrases}/\n# A.\nx\n== a /{phrases}/\n# A.\ny\n", /t\.rules:4: family "a" is defined twice/],
    ["== A b\n", /t\.rules:1: a family heading reads/],
  ])("refuses a bad table with a clear message (%#)", (text, message) => {
    expect(() => parseRuleTable("t.rules", text)).toThrow(message);
    expect(() => parseRuleTable("t.rules", text)).toThrow(/^Mailwise cannot start: rule table /);
  });

  it("names an unknown family", () => {
    expect(() => table("== a /{phrases}/\n# A.\nx\n").regex("b")).toThrow(/no family "b"/);
  });
});
