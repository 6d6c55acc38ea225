import { describe, expect, it } from "vitest";
import { humanCheckQuestion, isHumanCheckAnswerCorrect, newHumanCheck, randomInt } from "./human-check.ts";

/** A random source that replays the given values in order, then repeats the last. */
function sequence(...values: number[]): () => number {
  let i = 0;
  return () => values[Math.min(i++, values.length - 1)] ?? 0;
}

describe("randomInt", () => {
  it("maps the ends of [0, 1) onto both bounds", () => {
    expect(randomInt(1, 10, () => 0)).toBe(1);
    expect(randomInt(1, 10, () => 0.999_999)).toBe(10);
    expect(randomInt(1, 10, () => 0.5)).toBe(6);
  });
});

describe("newHumanCheck", () => {
  it("keeps both operands within 1..10 and reaches both ends", () => {
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      const { a, b } = newHumanCheck();
      for (const n of [a, b]) {
        expect(Number.isInteger(n)).toBe(true);
        expect(n).toBeGreaterThanOrEqual(1);
        expect(n).toBeLessThanOrEqual(10);
        seen.add(n);
      }
    }
    expect([...seen].sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it("never repeats the previous question", () => {
    const previous = { a: 3, b: 4 };
    // First draw reproduces 3 + 4, the second one differs.
    const next = newHumanCheck(previous, sequence(0.2, 0.3, 0.9, 0.0));
    expect(next).toEqual({ a: 10, b: 1 });
    for (let i = 0; i < 500; i++) {
      const q = newHumanCheck(previous);
      expect(q.a === previous.a && q.b === previous.b).toBe(false);
    }
  });

  it("still changes the question when the random source is stuck", () => {
    const stuck = () => 0;
    const next = newHumanCheck({ a: 1, b: 1 }, stuck);
    expect(next).not.toEqual({ a: 1, b: 1 });
    expect(next.a).toBeGreaterThanOrEqual(1);
    expect(next.a).toBeLessThanOrEqual(10);
  });
});

describe("humanCheckQuestion", () => {
  it("asks for the sum in the spec's wording", () => {
    expect(humanCheckQuestion({ a: 7, b: 2 })).toBe("What is 7 + 2?");
  });
});

describe("isHumanCheckAnswerCorrect", () => {
  const check = { a: 6, b: 9 };
  it("accepts the sum, with or without surrounding spaces", () => {
    expect(isHumanCheckAnswerCorrect(check, "15")).toBe(true);
    expect(isHumanCheckAnswerCorrect(check, " 15 ")).toBe(true);
  });
  it("rejects wrong, empty and non-integer answers", () => {
    for (const answer of ["14", "16", "", "  ", "15.0", "1e1", "fifteen", "15abc", "0x0f"]) {
      expect(isHumanCheckAnswerCorrect(check, answer)).toBe(false);
    }
  });
});
