import { describe, expect, it } from "vitest";
import { parseText } from "./nlp.ts";

const sentences = (text: string) => parseText(text).sentences.map((s) => s.text);

describe("sentence boundaries", () => {
  it("does not end a sentence at the dot of a host or file name", () => {
    expect(
      sentences("The domain verification for bluewater-labs.com is incomplete. Check procmail.log first."),
    ).toEqual(["The domain verification for bluewater-labs.com is incomplete.", "Check procmail.log first."]);
  });

  it("keeps addresses, URLs, abbreviations and version numbers as wink reads them", () => {
    expect(sentences("Mail jo@example.co.uk today. See https://a.example.com/x.html now.")).toEqual([
      "Mail jo@example.co.uk today.",
      "See https://a.example.com/x.html now.",
    ]);
    expect(sentences("I live in the U.S. now. Version 2.0.1 is out.")).toEqual([
      "I live in the U.S. now.",
      "Version 2.0.1 is out.",
    ]);
  });

  it("does not end a sentence at a short word's dot before a lower-case aside or an extension's number", () => {
    expect(
      sentences(
        "For a while, the VP of dev. (now still CTO I think) was keen on it. Then they lost interest.",
      ),
    ).toEqual([
      "For a while, the VP of dev. (now still CTO I think) was keen on it.",
      "Then they lost interest.",
    ]);
    expect(sentences("Call me on ext. 4411 tomorrow. Bye.")).toEqual([
      "Call me on ext. 4411 tomorrow.",
      "Bye.",
    ]);
  });

  it("still ends a casual sentence before a lower-case word", () => {
    expect(sentences("is the workshop open monday or am I off. my mum needs to know")).toEqual([
      "is the workshop open monday or am I off.",
      "my mum needs to know",
    ]);
  });
});
