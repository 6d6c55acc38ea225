import { describe, expect, it } from "vitest";
import { wordsAndPairs } from "../words-and-pairs.ts";
import { logOddsWith, workLogOdds } from "./score.ts";

describe("the work-or-personal word model", () => {
  it("leans work on a client's business and personal on a family's plans", () => {
    expect(
      workLogOdds(
        "Invoice for the March order",
        "Hi, could you send over the invoice for the March order and confirm the delivery date for the next consignment? Our accounts team needs it by Friday. Thanks, Dana",
      ),
    ).toBeGreaterThan(0);
    expect(
      workLogOdds(
        "Sunday lunch",
        "Hiya! Mum says Sunday lunch at hers, the kids can't wait to see you. Bring the dog if you like. Love, Bex xx",
      ),
    ).toBeLessThan(0);
  });

  it("reads words and pairs of neighbouring words once each, letters of any language", () => {
    expect([...wordsAndPairs("Café plans", "café plans")].sort()).toEqual([
      "café",
      "café plans",
      "plans",
      "plans café",
    ]);
  });

  it("counts only the 30 most telling words, so a long mail does not pile up evidence", () => {
    const letter = (n: number) => String.fromCharCode(97 + n);
    const words = Array.from({ length: 40 }, (_, i) => `w${letter(Math.floor(i / 26))}${letter(i % 26)}`);
    const weights = new Map(words.map((w, i) => [w, i < 5 ? -0.1 : 1]));
    expect(logOddsWith(weights, "", words.join(" . "))).toBeCloseTo(30, 5);
  });
});
