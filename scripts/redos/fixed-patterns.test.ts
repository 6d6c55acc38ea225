import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tagsToSpaces } from "../../server/ai/local/html-tags.ts";
import { IMPERATIVE, INSTRUCTION } from "../../server/ai/local/intent.ts";
import { ruleTable } from "../../server/ai/local/rules/rule-table.ts";
import { domainOfAddress } from "../../server/ai/local/security/domains.ts";
import { withoutFragment } from "../../server/ai/local/security/links.ts";
import { quotesToSpaces } from "../../server/ai/local/text-cleaning.ts";
import { INDIRECT_QUESTION, MARKLESS_QUESTION } from "../../server/ai/local/urgency.ts";
import { bracketedUris } from "../../server/mail/unsubscribe/list-unsubscribe.ts";
import { randomTexts } from "../../server/test/random-texts.ts";
import { regexesInFile } from "./find-regexes.ts";

const root = join(import.meta.dirname, "..", "..");

/**
 * The patterns of a source file whose text contains the marker (found, not copied): its regex
 * literals or, where its rules moved to rule tables (issue 40), the compiled families of its tables.
 */
function patternsIn(file: string, marker: string): RegExp[] {
  const text = readFileSync(join(root, file), "utf8");
  const { literals } = regexesInFile(file, text);
  const found = literals.filter((l) => l.source.includes(marker)).map((l) => new RegExp(l.source, l.flags));
  if (found.length > 0) return found;
  const tables = [...text.matchAll(/\bruleTable\("([a-z][a-z0-9-]*)"\)/g)].map((m) => ruleTable(m[1] ?? ""));
  return tables.flatMap((table) =>
    table
      .names()
      .map((family) => table.regex(family))
      .filter((re) => re.source.includes(marker))
      .map((re) => new RegExp(re.source, re.flags)),
  );
}

type Use = (re: RegExp, text: string) => unknown;
const test: Use = (re, text) => {
  re.lastIndex = 0;
  return re.test(text);
};
const replace: Use = (re, text) => text.replace(re, "<$&>");
const split: Use = (re, text) => text.split(re);

interface Fix {
  file: string;
  /** A piece of the pattern the fix did not touch, to find it. */
  marker: string;
  /** The fix as [before, after] pieces of the source: the test rebuilds the old pattern from it. */
  change: [string, string];
  /** Further changes to the same pattern. */
  alsoChanged?: Array<[string, string]>;
  use: Use;
  /** A sender's text that took seconds before the fix (30,000 characters). */
  attack: string;
  /** Pieces random texts are built of, to compare the old pattern with the new. */
  pieces: string[];
  /** What the text goes through before the pattern sees it, where the fix relies on it. */
  before?: (text: string) => string;
  /** The pattern itself, where the code joins it from rule-table families (no literal to find). */
  built?: RegExp;
}

const N = 30_000;
const FIXES: Fix[] = [
  {
    file: "server/ai/local/features.ts",
    marker: "x{1,3}$",
    change: [String.raw`\s+x`, String.raw`(?<!\s)\s+x`],
    use: replace,
    attack: `a${" ".repeat(N)}y`,
    pieces: [" ", "\t", "x", "X", "xx", "a", "\n"],
  },
  {
    file: "server/ai/local/text-cleaning.ts",
    marker: "x{1,3}$",
    change: [String.raw`\s+x`, String.raw`(?<!\s)\s+x`],
    use: replace,
    attack: `a${" ".repeat(N)}y`,
    pieces: [" ", "\t", "x", "xx", "a", "\n"],
  },
  {
    file: "server/ai/local/intent.ts",
    marker: "no later than|within|at https?:",
    change: [String.raw`\s+(?:before`, String.raw`(?<!\s)\s+(?:before`],
    use: split,
    attack: `update it${" ".repeat(N)}x`,
    pieces: [" ", "\n", "before", "by", "bye", "within", "at www.", "https:", ",", "(", "a", "so that"],
  },
  {
    file: "server/ai/local/urgency.ts",
    marker: "(\\d+)(st|nd|rd|th)\\b",
    change: [String.raw`(\d+)(st`, String.raw`(?<!\d)(\d+)(st`],
    use: replace,
    attack: `${"1".repeat(N)}x`,
    pieces: ["1", "23", "st", "nd", "TH", "x", " ", "-"],
  },
  {
    file: "server/ai/local/text-cleaning.ts",
    marker: "\\n ?",
    change: [" *\\n *", " ?\\n ?"],
    use: (re, text) => text.replace(re, "\n"),
    attack: `${" ".repeat(N)}x`,
    pieces: [" ", "  ", "\t", "\u00a0", "\n", "a"],
    // Runs of spaces are one space by then (the line before it in toPlainText).
    before: (text) => text.replace(/[ \t\u00a0]+/g, " "),
  },
  {
    file: "server/ai/local/category.ts",
    marker: "\\S+$|",
    change: [String.raw`|\s{6,}\S+$`, String.raw`|(?<!\s)\s{6,}\S+$`],
    use: test,
    attack: `Hi${" ".repeat(N)}\u0000 x`,
    pieces: [" ", "      ", "\n", "a", "b!", "offer", "job ", "$", "!"],
  },
  {
    file: "server/ai/local/security/advance-fee.ts",
    marker: "dear\\s+(?:sir",
    change: [String.raw`^\s*(?:dear`, String.raw`^[^\S\n\r\u2028\u2029]*(?:dear`],
    use: test,
    attack: `${"\n".repeat(N)}x`,
    pieces: ["\n", "\r", " ", "\t", "\u2028", "dear", "sir", "attn:", "the ", "ceo", "x"],
  },
  {
    file: "server/ai/local/security/advance-fee.ts",
    marker: "(?:send|furnish|provide",
    change: [String.raw`\s+(?:me|us)?\s*(?:with`, String.raw`\s+(?:(?:me|us)\s*)?(?:with`],
    use: test,
    attack: `send${" ".repeat(N)}x`,
    pieces: ["send", " ", "  ", "me", "us", "with ", "your ", "full ", "bank details", "account number", "x"],
  },
  {
    file: "server/ai/local/text-cleaning.ts",
    marker: "(best|kind|warm|many)?\\s*(regards|wishes)",
    change: [String.raw`^(with\s+)?`, String.raw`^(with\s+(?!\s))?`],
    use: test,
    attack: `with${" ".repeat(N)}x`,
    pieces: ["with", " ", "  ", "best", "kind", "regards", "wishes", "thanks", ",", "x"],
  },
  {
    file: "server/ai/local/text-cleaning.ts",
    marker: "at\\s+(async\\s+)?",
    change: [String.raw`[\w$.<>/-]*[A-Za-z/][\w$.<>/-]*(`, String.raw`(?=[\w$.<>/-]*[A-Za-z/])[\w$.<>/-]+(`],
    use: test,
    attack: `at ${"A".repeat(N)}!`,
    pieces: ["at ", "async ", "A", "1", "/", ".", "<", " (", "x.js:1:2", ":1:2", ")", " "],
  },
  {
    file: "server/ai/local/spam/tokens.ts",
    marker: "['-]+$",
    change: ["['-]+$", "(?<!['-])['-]+$"],
    use: replace,
    attack: `a${"-".repeat(N)}b`,
    pieces: ["-", "'", "a", "1", "--"],
  },
  {
    file: "server/ai/local/security/relays.ts",
    marker: "@[a-z0-9-]+(?:",
    change: ["[a-z0-9._%+-]+@", "(?<![a-z0-9._%+-])[a-z0-9._%+-]+@"],
    use: (re, text) => re.exec(text)?.[0] ?? null,
    attack: "A".repeat(N),
    pieces: ["a", "B", ".", "-", "+", "@", "x.com", " ", "<", "%"],
  },
  {
    file: "server/ai/local/security/relays.ts",
    marker: "\\s+at\\s+",
    change: [String.raw`([a-z0-9._%+-]+)\s+at`, String.raw`(?<![a-z0-9._%+-])([a-z0-9._%+-]+)\s+at`],
    use: (re, text) => re.exec(text)?.slice(0, 3) ?? null,
    attack: "A".repeat(N),
    pieces: ["a", "B", ".", "-", " ", " at ", "x", ".com", "@"],
  },
  {
    file: "server/ai/local/text-cleaning.ts",
    marker: "[^\\s,;|]+(?:",
    change: [String.raw`^\s*\|.*\|.*\|\s*$`, String.raw`^\|(?:[^|\n\r\u2028\u2029]*\|){2,}$`],
    use: test,
    attack: `${"|".repeat(N)}x`,
    pieces: ["|", " ", "a", ",", "\t", ";", "\r", "x y", "\u2028"],
    // DATA_ROW reads trimmed lines only.
    before: (text) => text.trim(),
  },
  {
    file: "server/ai/local/text-cleaning.ts",
    marker: "[⋅·]",
    change: [String.raw`\s*(am|pm)?\s*[–-]`, String.raw`\s*(?:(am|pm)\s*)?[–-]`],
    use: test,
    attack: `1 may 2025 · 10${" ".repeat(N)}x`,
    pieces: ["1", "12", " ", "may", " 2025", "·", "10:00", "am", "pm", "–", "-", "monday, ", "\n"],
  },
  {
    file: "server/ai/local/text-cleaning.ts",
    marker: "(at )?\\d{1,2}:\\d\\d",
    change: [
      String.raw`\s*([ap]m)?\s*([a-z]{2,5}|[+-]\d{4}|\(?utc[+-]?\d*\)?)?\s*$`,
      String.raw`\s*(?:([ap]m)\s*)?(?:([a-z]{2,5}|[+-]\d{4}|\(?utc[+-]?\d*\)?)\s*)?$`,
    ],
    use: test,
    attack: `1 May 2025 10:00${" ".repeat(N)}!`,
    pieces: [
      "1 may 2025",
      ", ",
      "at ",
      "10:00",
      ":00",
      " ",
      "am",
      "pm",
      "gmt",
      "+0100",
      "(utc+1)",
      "x",
      "mon, ",
    ],
  },
  {
    file: "server/ai/local/text-cleaning.ts",
    marker: "(posted|shared) by",
    change: [String.raw`^\s*[—–-]?\s*(posted`, String.raw`^\s*(?:[—–-]\s*)?(posted`],
    use: test,
    attack: `${" ".repeat(N)}x`,
    pieces: [" ", "-", "—", "posted by ", "shared by ", "x", "·", "\n"],
  },
  {
    file: "server/ai/local/text-cleaning.ts",
    marker: "@[A-Z0-9-]+\\s*$",
    change: [String.raw`^\S[^@\n]*\/[^@\n]*@`, String.raw`^\S(?=[^@\n]*\/)[^@\n]*@`],
    use: test,
    attack: `a${"/".repeat(N)}\n`,
    pieces: ["a", "/", "@", "X", " ", "\n", "B-1", "R"],
  },
  {
    file: "server/ai/local/urgency.ts",
    marker: "what (do )?you think",
    built: MARKLESS_QUESTION,
    change: [String.raw`[^.!?]{6,}\.?\s*$`, String.raw`[^.!?]{6,}(?:\.\s*)?$`],
    alsoChanged: [
      [String.raw`[^.!?]{8,}\.?\s*$`, String.raw`[^.!?]{8,}(?:\.\s*)?$`],
      [String.raw`(you|we)\s*[.!]?\s*$`, String.raw`(you|we)\s*(?:[.!]\s*)?$`],
      [String.raw`think\s*[.!]?\s*$`, String.raw`think\s*(?:[.!]\s*)?$`],
    ],
    use: test,
    attack: `can i ${" ".repeat(N)}!`,
    pieces: [
      "can i ",
      "could we ",
      " ",
      ".",
      "!",
      "?",
      "x",
      "don't you",
      "what you think",
      "\n",
      "roughly, ",
      "what does it ",
      "abcdefgh",
    ],
  },
  {
    file: "server/ai/local/urgency.ts",
    marker: "(what|which|where|how|who)\\b[^.!?]{0,60}",
    built: INDIRECT_QUESTION,
    change: [String.raw`[^.!?]{12,}\.?\s*$`, String.raw`[^.!?]{12,}(?:\.\s*)?$`],
    use: test,
    attack: `Is it ${" ".repeat(N)}!`,
    pieces: ["is it ", "shall we ", "Kate, ", "how do you ", " ", ".", "!", "abcdefghijklm", "\n"],
  },
  {
    file: "server/ai/local/intent.ts",
    marker: "^(in|within)",
    // The spaces go to \s+ whole unless the text ends in them; then all but the last one do.
    change: [String.raw`\s+(.+)$`, String.raw`(?:\s+(?=\S)|\s+(?=[^\S\n\r\u2028\u2029]$))(.+)$`],
    use: (re, text) => re.exec(text),
    attack: `in${" ".repeat(N)}\n`,
    pieces: ["in", "within", " ", "\n", "\t", "x", "3 days", "\r", "\u2028", "  "],
  },
  {
    file: "server/ai/drafting/local-improve.ts",
    marker: "([a-z])",
    change: [String.raw`|\n\s*)`, String.raw`|(?<!\n)\n\s*)`],
    use: replace,
    attack: `${"\n".repeat(N)}1`,
    pieces: ["\n", " ", "a", "B", ". ", "!", "\t", "1"],
  },
  {
    file: "server/ai/drafting/local-replies.ts",
    marker: "(re|fwd?|fw|aw|sv)",
    change: [String.raw`\s*(\[\d+\])?\s*:`, String.raw`\s*(?:(\[\d+\])\s*)?:`],
    use: replace,
    attack: `re${" ".repeat(N)}x`,
    pieces: ["re", "Fwd", "aw", " ", "[2]", ":", "[list]", "x", "\t"],
  },
  ...["server/ai/drafting/local-improve.ts", "server/ai/drafting/forbidden.ts"].map(
    (file): Fix => ({
      file,
      marker: "([,.!?;:])",
      change: [" +(", "(?<! ) +("],
      use: replace,
      attack: `${" ".repeat(N)}x`,
      pieces: [" ", "  ", ",", ".", "a", "!", "\n"],
    }),
  ),
  {
    file: "server/ai/drafting/local-improve.ts",
    marker: "[ \\t]+$",
    change: [String.raw`[ \t]+$`, String.raw`(?<![ \t])[ \t]+$`],
    use: replace,
    attack: `${" ".repeat(N)}x`,
    pieces: [" ", "\t", "\n", "a", "\r"],
  },
  {
    file: "server/ai/drafting/local-replies.ts",
    marker: "[?.!]+$",
    change: ["[?.!]+$", "(?<![?.!])[?.!]+$"],
    use: replace,
    attack: `${".".repeat(N)}x`,
    pieces: [".", "?", "!", "a", " "],
  },
  {
    file: "server/ai/drafting/local-replies.ts",
    marker: "\\S*$",
    change: [String.raw`\s+\S*$`, String.raw`(?<!\s)\s+\S*$`],
    use: replace,
    attack: `${" ".repeat(N)}\u0000 x`,
    pieces: [" ", "\n", "a", "bc", "\t"],
  },
  {
    file: "server/ai/prompts/untrusted.ts",
    marker: "(BEGIN|END)",
    change: ["-{3,}", "(?<!-)-{3,}"],
    use: replace,
    attack: `${"-".repeat(N)}x`,
    pieces: ["-", "---", " ", "BEGIN", "end", "x", "\n"],
  },
  {
    file: "server/mail/unsubscribe/list-unsubscribe.ts",
    marker: '^[^\\s@,;<>"]+@',
    change: [
      String.raw`@[^\s@,;<>"]+\.[^\s@,;<>"]+$`,
      String.raw`@(?=[^\s@,;<>"]+\.[^\s@,;<>"])[^\s@,;<>"]+$`,
    ],
    use: test,
    attack: `a@${".".repeat(N)} `,
    pieces: ["a", "@", ".", " ", ",", "<", "b.c", '"'],
  },
  {
    file: "web/src/features/calendar/event-form-dialog.tsx",
    marker: "^[^\\s@]+@",
    change: [String.raw`@[^\s@]+\.[^\s@]+$`, String.raw`@(?=[^\s@]+\.[^\s@])[^\s@]+$`],
    use: test,
    attack: `a@${".".repeat(N)} `,
    pieces: ["a", "@", ".", " ", "b.c", "\n"],
  },
  {
    file: "contract/game.ts",
    marker: "[^\\s@]+@",
    change: [String.raw`[^\s@]+@[^\s@]+\.[^\s@]+`, String.raw`(?<![^\s@])[^\s@]+@(?=[^\s@]+\.[^\s@])`],
    use: test,
    attack: "a".repeat(N),
    pieces: ["a", "@", ".", " ", "b.c", "\n", "@@"],
  },
  {
    file: "server/ai/local/text-cleaning.ts",
    marker: String.raw`-\s+[\w"]+:.*`,
    change: [String.raw`^\s*([{}[\](),;]+|"`, String.raw`^\s*(?:[{}[\](),;]+\s*$|(?:"`],
    alsoChanged: [
      [String.raw`[:=](\s.*)?`, String.raw`[:=](?:\s.*)?`],
      [String.raw`\]\s.*)\s*$`, String.raw`\]\s.*)(?:[\n\r\u2028\u2029]\s*)?$)`],
    ],
    use: test,
    attack: `a:${" ".repeat(N)}\u2028x`,
    pieces: [
      "a",
      "b_c",
      ":",
      "=",
      " ",
      "  ",
      "\t",
      "\u2028",
      "\r",
      "\n",
      "# ",
      "//",
      "{",
      ")",
      '"',
      "<b",
      ">",
      "- ",
      "$ ",
      "[1:00]",
      " PM]",
      "x",
    ],
  },
  ...["server/providers/gmail/client.ts", "server/providers/outlook/client.ts"].map(
    (file): Fix => ({
      file,
      marker: "\\/+$",
      change: [String.raw`\/+$`, String.raw`(?<!\/)\/+$`],
      use: replace,
      attack: `${"/".repeat(N)}x`,
      pieces: ["/", "//", "a", ":", "\n"],
    }),
  ),
];

describe("the analyzer's cuts done in one pass instead of by a backtracking pattern", () => {
  const pieces = ["a", "b.c", "#", "##", ">", " ", "\t", "\n", "\r", "\u2028", "@", ".", "x"];

  it("a URL's fragment: bounded time, and what /#.*$/ removed", () => {
    const started = performance.now();
    withoutFragment(`${"#".repeat(N)}\n`);
    expect(performance.now() - started).toBeLessThan(150);
    for (const url of randomTexts(pieces, 4000, 10))
      expect(withoutFragment(url), JSON.stringify(url)).toBe(url.replace(/#.*$/, ""));
  });

  it("tags to spaces: bounded time, and what /<[^>]*>/g and /<[^>]+>/g gave", () => {
    const started = performance.now();
    tagsToSpaces("<".repeat(N));
    tagsToSpaces("<".repeat(N), false);
    expect(performance.now() - started).toBeLessThan(150);
    for (const html of randomTexts(["<", ">", "<>", "a", "<b>", " ", "\n", "<<"], 4000, 10)) {
      expect(tagsToSpaces(html), JSON.stringify(html)).toBe(html.replace(/<[^>]*>/g, " "));
      expect(tagsToSpaces(html, false), JSON.stringify(html)).toBe(html.replace(/<[^>]+>/g, " "));
    }
  });

  it("quotations to spaces: bounded time, and what the quotation pattern gave", () => {
    const started = performance.now();
    quotesToSpaces("“".repeat(N));
    expect(performance.now() - started).toBeLessThan(150);
    for (const text of randomTexts(['"', "“", "”", "a", " ", "\n", "b c"], 4000, 10)) {
      expect(quotesToSpaces(text), JSON.stringify(text)).toBe(text.replace(/["“][^"”\n]*["”]/g, " "));
    }
  });

  it("List-Unsubscribe URIs: bounded time, and what /<\\s*([^>]+?)\\s*>/g found", () => {
    const started = performance.now();
    bracketedUris(`<${" ".repeat(N)}`);
    bracketedUris("<".repeat(N));
    expect(performance.now() - started).toBeLessThan(150);
    for (const header of randomTexts(
      ["<", ">", "<>", " ", "a", "mailto:x@y.z", ", ", "\t", "<<"],
      4000,
      10,
    )) {
      const before = [...header.matchAll(/<\s*([^>]+?)\s*>/g)].map((m) => (m[1] ?? "").replace(/\s+/g, ""));
      expect(bracketedUris(header), JSON.stringify(header)).toEqual(before);
    }
  });

  it("an address's domain: bounded time, and what /[>\\s].*$/ left", () => {
    const started = performance.now();
    domainOfAddress(`a@b${" ".repeat(N)}\n`);
    expect(performance.now() - started).toBeLessThan(150);
    for (const text of randomTexts(pieces, 4000, 10)) {
      const at = text.lastIndexOf("@");
      const before =
        at === -1
          ? ""
          : text
              .slice(at + 1)
              .replace(/[>\s].*$/, "")
              .replace(/\.$/, "")
              .toLowerCase();
      expect(domainOfAddress(text), JSON.stringify(text)).toBe(before);
    }
  });
});

describe("the instruction patterns built from the task verbs", () => {
  const change: [string, string] = [String.raw`[.!?:\n]\s*)`, String.raw`[.!?:]\s*|(?<![.!?:\n])\n\s*)`];
  const pieces = [
    "\n",
    "\n\n",
    ".",
    ":",
    " ",
    "please ",
    "update",
    "change",
    " your password",
    "to do this, ",
    "x",
    "!",
  ];
  for (const [name, re] of [
    ["IMPERATIVE", IMPERATIVE],
    ["INSTRUCTION", INSTRUCTION],
  ] as const) {
    it(`${name}: bounded time on 30,000 newlines, and the same matches`, () => {
      const started = performance.now();
      re.exec(`${"\n".repeat(N)}x`);
      expect(performance.now() - started).toBeLessThan(150);
      expect(re.source).toContain(change[1]);
      const old = new RegExp(re.source.replace(change[1], change[0]), re.flags);
      const read = (r: RegExp, text: string) => {
        const m = r.exec(text);
        return m && [m.index, ...m];
      };
      for (const text of randomTexts(pieces, 4000, 10))
        expect(read(re, text), JSON.stringify(text)).toEqual(read(old, text));
    });
  }
});

// Issue 34: the analyzer's patterns run on a sender's whole text, the drafting and unsubscribe
// ones on a sender's subject, body or header; each fix below keeps what the pattern finds and takes
// linear time on the text that made the old one backtrack.
describe("patterns fixed for catastrophic backtracking", () => {
  for (const fix of FIXES) {
    describe(`${fix.file}: ${fix.change[1]}`, () => {
      const found = fix.built
        ? [fix.built].filter((re) => re.source.includes(fix.marker))
        : patternsIn(fix.file, fix.marker);

      it("runs in bounded time on a crafted 30,000-character text", () => {
        expect(found.length).toBeGreaterThan(0);
        for (const re of found) {
          const started = performance.now();
          fix.use(re, fix.attack);
          expect(performance.now() - started).toBeLessThan(150);
        }
      });

      it("finds exactly what the pattern before the fix found", () => {
        for (const re of found) {
          expect(re.source).toContain(fix.change[1]);
          let oldSource = re.source;
          for (const [before, after] of [fix.change, ...(fix.alsoChanged ?? [])]) {
            expect(oldSource).toContain(after);
            oldSource = oldSource.replace(after, before);
          }
          const old = new RegExp(oldSource, re.flags);
          for (const raw of randomTexts(fix.pieces, 4000, 10)) {
            const text = fix.before ? fix.before(raw) : raw;
            expect(fix.use(re, text), JSON.stringify(text)).toEqual(fix.use(old, text));
          }
        }
      });
    });
  }
});
