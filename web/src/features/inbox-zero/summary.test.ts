import { describe, expect, it } from "vitest";
import { summaryAddsToSnippet } from "./summary.ts";

describe("summaryAddsToSnippet", () => {
  const snippet = "Please send the signed contract back by Friday so we can start on Monday.";

  it("leaves out a summary that repeats the snippet or a passage of it", () => {
    expect(summaryAddsToSnippet(snippet, snippet)).toBe(false);
    expect(summaryAddsToSnippet("please send the signed contract back by Friday", snippet)).toBe(false);
    expect(summaryAddsToSnippet("We can start on Monday", snippet)).toBe(false);
    expect(summaryAddsToSnippet("  ", snippet)).toBe(false);
    expect(summaryAddsToSnippet(null, snippet)).toBe(false);
  });

  it("leaves out a summary the snippet only cut short", () => {
    const long = "Hi Sam, the boiler service is booked for Tuesday at nine and the engineer will call ahead.";
    expect(
      summaryAddsToSnippet(long, "Hi Sam, the boiler service is booked for Tuesday at nine and the engin…"),
    ).toBe(false);
  });

  it("shows a summary that says something else", () => {
    expect(summaryAddsToSnippet("Contract due Friday; work starts Monday.", snippet)).toBe(true);
    expect(summaryAddsToSnippet("Asks for the signed contract by Friday.", snippet)).toBe(true);
    const long = "Hi Sam, the boiler service is booked for Tuesday at nine and the engineer will call ahead.";
    expect(summaryAddsToSnippet(long, "Hi Sam, the boiler…")).toBe(true);
  });
});
