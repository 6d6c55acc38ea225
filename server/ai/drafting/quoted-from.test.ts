import { describe, expect, it } from "vitest";
import { randomTexts } from "../../test/random-texts.ts";
import { quotedFrom } from "./quoted-from.ts";

// The pattern quotedFrom replaces, as it was in drafting-service.ts.
const BEFORE = /^From:\s*(?:"?([^"<\n]*)"?\s*)?<?([^>\s]+@[^>\s]+)>?/im;

const PIECES = [
  "From:",
  "from: ",
  "\nFrom:",
  " ",
  "\t",
  "\n",
  "\r",
  "\u2028",
  '"',
  "<",
  ">",
  "@",
  "a",
  "b.c",
  "x@y.z",
  "Ann Lee",
  "\nFROM:",
];

describe("the quoted mail's From line (issue 34)", () => {
  it("finds what the pattern found, on 4,000 random texts", () => {
    for (const text of randomTexts(PIECES, 4_000, 12)) {
      const m = BEFORE.exec(text);
      const found = quotedFrom(text);
      expect(found && [found.index, found.match, found.name, found.address], JSON.stringify(text)).toEqual(
        m && [m.index, m[0], m[1], m[2]],
      );
    }
  });

  it("reads a real one", () => {
    expect(quotedFrom('Hi\n\nFrom: "Ann Lee" <ann@example.com>\nSent: Monday')).toMatchObject({
      name: "Ann Lee",
      address: "ann@example.com",
    });
  });

  // Each took seconds with the pattern: its quantifiers traded the line's spaces and characters.
  it.each([
    ["spaces", `From:${" ".repeat(30_000)}!`],
    ["letters", `From:${"a".repeat(30_000)}`],
    ["at signs", `From:${"@".repeat(30_000)}`],
    ["words", `From:${"a ".repeat(15_000)}`],
    ["quotes", `From:${'"'.repeat(30_000)}`],
  ])("a 30,000-character From line of %s in under 150 ms", (_name, text) => {
    const started = performance.now();
    quotedFrom(text);
    expect(performance.now() - started).toBeLessThan(150);
  });
});
